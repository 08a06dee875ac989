/**
 * Proves the real-n8n harness (on 2.x; both pinned versions with DECKGEN_E2E_FLAVORS=v2,v1) with a throwaway community package
 * (./fixtures/smoke-package.ts), independent of the real DeckGen nodes:
 * install (cached) -> start -> node type listed -> workflow import -> CLI + REST execution ->
 * failing execution retried via POST /rest/executions/:id/retry -> production webhook on loopback.
 *
 * Run: jest --roots test/e2e --testMatch '**\/*.e2e.ts' --testPathIgnorePatterns /node_modules/ --testTimeout 600000 --runInBand
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureN8n, Flavor, e2eFlavors } from './n8n-install';
import { closeHttpClients, n8nFetch, N8nInstance, startN8n } from './n8n-instance';
import { echoWorkflow, failingWorkflow, makeSmokePackage, SMOKE_CREDENTIAL, SMOKE_NODE, SMOKE_PACKAGE, webhookWorkflow } from './fixtures/smoke-package';

// 2.x by default: the harness runs on 1.123 in every other file that defaults to both (deckgen,
// execution data); DECKGEN_E2E_FLAVORS=v2,v1 runs this one there too
const flavors: Flavor[] = e2eFlavors(['v2']);
const report: Record<string, unknown> = {};
let packageDir: string;
let scratch: string;

beforeAll(() => {
	packageDir = makeSmokePackage();
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deckgen-smoke-scratch-'));
});

afterAll(async () => {
	await closeHttpClients();
	fs.rmSync(packageDir, { recursive: true, force: true });
	fs.rmSync(scratch, { recursive: true, force: true });
	// one line a CI log can grep for
	console.log(`E2E_REPORT ${JSON.stringify(report)}`);
});

describe.each(flavors)('real n8n %s with a community package', (flavor) => {
	let n8n: N8nInstance;
	const type = `${SMOKE_PACKAGE}.${SMOKE_NODE}`;
	const r: Record<string, unknown> = {};
	report[flavor] = r;

	beforeAll(async () => {
		const inst = await ensureN8n(flavor);
		r.version = inst.version;
		r.node = inst.nodeVersion;
		r.installSeconds = inst.seconds;
		r.installCached = inst.cached;
		n8n = await startN8n({ flavor, packageDir });
		r.startupSeconds = n8n.startupSeconds;
	});

	afterAll(async () => {
		if (!n8n) return;
		r.packageWarnings = n8n.warnings().filter((l) => /e2esmoke|e2eSmoke|community|package/i.test(l));
		// n8n's own output outlives the temp user folder, for reading after a failure
		const keep = path.join(os.tmpdir(), `deckgen-e2e-n8n-${flavor}.log`);
		fs.writeFileSync(keep, n8n.logs);
		r.log = keep;
		await n8n.stop();
	});

	it('installed the pinned version and is up on loopback', async () => {
		expect(n8n.version).toBe(flavor === 'v2' ? '2.41.1' : '1.123.81');
		expect(n8n.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		const res = await n8nFetch(`${n8n.baseUrl}/healthz`);
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ status: 'ok' });
		// the package was installed where n8n's Community Nodes installs packages
		const installed = path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', SMOKE_PACKAGE);
		expect(fs.existsSync(path.join(installed, 'dist', 'nodes', 'E2eSmoke', 'E2eSmoke.node.js'))).toBe(true);
		expect(fs.existsSync(path.join(installed, 'src'))).toBe(false); // only "files" were packed
	});

	it('lists the package node type and credential type', async () => {
		const nodes = await n8n.nodeTypes();
		const ours = nodes.find((n) => n.name === type);
		expect(ours).toBeDefined();
		expect(ours!.displayName).toBe('E2E Smoke');
		const creds = await n8n.credentialTypes();
		expect(creds.map((c) => c.name)).toContain(SMOKE_CREDENTIAL);
	});

	let credentialId: string;
	let echoId: string;

	it('creates a credential and imports a workflow (REST and CLI)', async () => {
		const cred = await n8n.createCredential({ name: 'E2E smoke credential', type: SMOKE_CREDENTIAL, data: { apiKey: 'k-123', baseUrl: 'http://127.0.0.1:9/simulated' } });
		credentialId = cred.id;
		expect(credentialId).toBeTruthy();
		// what `npm run dev` does on a reused user folder: update in place
		const again = await n8n.upsertCredential({ name: 'E2E smoke credential', type: SMOKE_CREDENTIAL, data: { apiKey: 'k-123', baseUrl: 'http://127.0.0.1:9/simulated' } });
		expect(again.id).toBe(credentialId);
		echoId = await n8n.importWorkflow(echoWorkflow(type, 'hello deck', credentialId));
		const t = Date.now();
		const viaCli = await n8n.importWorkflow(echoWorkflow(type, 'from cli', credentialId), { via: 'cli' });
		r.cliImportSeconds = (Date.now() - t) / 1000;
		const wf = await n8n.getWorkflow(viaCli);
		expect(wf.nodes.map((n: { type: string }) => n.type)).toContain(type);
	});

	it('executes Manual Trigger -> node via the CLI', async () => {
		const res = await n8n.executeViaCli(echoId);
		r.cliExecuteSeconds = res.seconds;
		r.cliExecuteExit = { code: res.exitCode, signal: res.signal };
		expect({ ok: res.ok, error: res.error, stderr: res.stderr.slice(-2000) }).toMatchObject({ ok: true });
		const out = res.run.data.resultData.runData.Smoke[0].data.main[0][0].json;
		expect(out).toMatchObject({ smoke: true, message: 'hello deck', upper: 'HELLO DECK', credentialBaseUrl: 'http://127.0.0.1:9/simulated' });
		expect(out.nodeVersion).toBe(n8n.install.nodeVersion);
		expect(res.executionId).toBeDefined();
		const exec = await n8n.getExecution(res.executionId!);
		expect(exec.status).toBe('success');
		expect(exec.mode).toBe('cli');
	});

	it('executes it via REST (manual run) too', async () => {
		const exec = await n8n.runManually(echoId);
		expect(exec.status).toBe('success');
		expect(exec.data.resultData.runData.Smoke[0].data.main[0][0].json.upper).toBe('HELLO DECK');
	});

	it('retries a failed execution with POST /rest/executions/:id/retry', async () => {
		const flag = path.join(scratch, `${flavor}-fail.flag`);
		fs.writeFileSync(flag, 'fail');
		const wfId = await n8n.importWorkflow(failingWorkflow(type, flag));

		const failed = await n8n.executeViaCli(wfId);
		r.cliFailedExit = { code: failed.exitCode, signal: failed.signal };
		expect(failed.ok).toBe(false);
		expect(failed.error).toMatch(/flag file present/);
		expect(failed.executionId).toBeDefined();
		const original = await n8n.getExecution(failed.executionId!);
		expect(original.status).toBe('error');
		expect(original.data.resultData.error.message).toMatch(/flag file present/);

		// still broken: the retry runs the node again and fails again
		const again = await n8n.retryExecution(failed.executionId!, { loadWorkflow: false });
		r.retryResponseShape = typeof again.raw === 'object' ? Object.keys(again.raw as object).sort() : typeof again.raw;
		expect(again.execution?.status).toBe('error');
		expect(String(again.execution?.retryOf)).toBe(failed.executionId);

		// fixed: the retry of the same execution succeeds
		fs.rmSync(flag);
		const fixed = await n8n.retryExecution(failed.executionId!, { loadWorkflow: false });
		expect(fixed.execution?.status).toBe('success');
		expect(fixed.execution?.mode).toBe('retry');
		expect(fixed.execution?.data.resultData.runData.Smoke[0].data.main[0][0].json.upper).toBe('RETRY ME');

		// loadWorkflow: true uses the saved workflow (now echo), not the execution's snapshot
		fs.writeFileSync(flag, 'fail');
		const second = await n8n.runManually(wfId);
		expect(second.status).toBe('error');
		const wf = await n8n.getWorkflow(wfId);
		const nodes = wf.nodes.map((n: { name: string; parameters: Record<string, unknown> }) => (n.name === 'Smoke' ? { ...n, parameters: { ...n.parameters, mode: 'echo' } } : n));
		await n8n.updateWorkflow(wfId, { nodes, connections: wf.connections, name: wf.name });
		const snapshot = await n8n.retryExecution(second.id, { loadWorkflow: false });
		expect(snapshot.execution?.status).toBe('error');
		const loaded = await n8n.retryExecution(second.id, { loadWorkflow: true });
		expect(loaded.execution?.status).toBe('success');
	});

	it('serves a production webhook on loopback after activation', async () => {
		const hookPath = `e2e-smoke-${flavor}`;
		const wfId = await n8n.importWorkflow(webhookWorkflow(type, hookPath));
		await n8n.activate(wfId);
		const res = await n8n.runWebhook({ path: hookPath, method: 'POST', body: { name: 'deck' } });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ smoke: true, message: 'deck', upper: 'DECK' });
		const execs = await n8n.listExecutions({ workflowId: wfId });
		expect(execs[0]?.mode).toBe('webhook');
		await n8n.deactivate(wfId);
		const gone = await n8n.runWebhook({ path: hookPath, method: 'POST', body: { name: 'deck' } });
		expect(gone.status).toBe(404);
	});
});

// The alternative loading route (N8N_CUSTOM_EXTENSIONS): node types are CUSTOM.<name>.
describe('custom-extension loading (v2)', () => {
	const run = flavors.includes('v2') ? it : it.skip;
	run('loads the same package as CUSTOM.e2eSmoke', async () => {
		const n8n = await startN8n({ flavor: 'v2', packageDir, install: 'custom' });
		try {
			const names = (await n8n.nodeTypes()).map((n) => n.name);
			expect(names).toContain(`CUSTOM.${SMOKE_NODE}`);
			expect(names).not.toContain(`${SMOKE_PACKAGE}.${SMOKE_NODE}`);
			const id = await n8n.importWorkflow(echoWorkflow(`CUSTOM.${SMOKE_NODE}`, 'custom'));
			const exec = await n8n.runManually(id);
			expect(exec.status).toBe('success');
		} finally {
			await n8n.stop();
		}
	});
});

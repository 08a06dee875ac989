// `npm run simulator -- --port 4010 --speed 60 --seed 7 [--manual]`: the simulator on loopback until killed.
import { DEMO_KEY_DESCRIPTIONS, start, type DemoKeyName } from './index';

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	if (i < 0) return undefined;
	const value = process.argv[i + 1];
	if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
	return value;
}

function num(name: string, fallback: number): number {
	const raw = arg(name);
	if (raw === undefined) return fallback;
	const n = Number(raw);
	if (!Number.isFinite(n)) throw new Error(`--${name} must be a number, got ${raw}`);
	return n;
}

async function main(): Promise<void> {
	const port = num('port', 4010);
	const seed = num('seed', 1);
	const speed = num('speed', 1);
	const manual = process.argv.includes('--manual');
	const sim = await start({ port, seed, clock: manual ? { manual: true } : { speed } });
	const lines = [
		`Deck Generation Service simulator on ${sim.url}  (API under ${sim.url}/v1)`,
		`seed ${seed}, clock ${manual ? 'manual' : `${speed} sim-ms per real ms`}`,
		'',
		'Demo keys (send as "Authorization: Bearer <key>"):',
		...(Object.keys(sim.keys) as DemoKeyName[]).map((name) => `  ${name.padEnd(21)} ${sim.keys[name]}\n  ${' '.repeat(21)} ${DEMO_KEY_DESCRIPTIONS[name]}`),
		'',
		`Try: curl -s ${sim.url}/v1/credits -H "Authorization: Bearer ${sim.keys.personal}"`,
	];
	process.stdout.write(lines.join('\n') + '\n');
	const stop = (): void => {
		void sim.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	process.on('SIGHUP', stop);
	// `npm run simulator &` then `kill <pid>` signals npm, which passes SIGTERM to its `sh -c`, which dies without
	// passing it on: this process would live on, orphaned, still answering. A new parent means ours is gone.
	const parentAtStart = process.ppid;
	setInterval(() => {
		if (process.ppid !== parentAtStart) stop();
	}, ORPHAN_CHECK_MS).unref();
}

const ORPHAN_CHECK_MS = 250;

main().catch((err: unknown) => {
	process.stderr.write(`simulator: ${err instanceof Error ? err.message : String(err)}\n`);
	process.exit(1);
});

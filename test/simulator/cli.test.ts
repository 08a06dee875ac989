/**
 * `npm run simulator &` stopped with `kill <pid>`: npm passes SIGTERM to its `sh -c`, which dies
 * without passing it on. The simulator must notice that it was orphaned and stop answering.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

async function answers(url: string): Promise<boolean> {
	try {
		await fetch(`${url}/v1/credits`, { signal: AbortSignal.timeout(5_000) });
		return true;
	} catch {
		return false;
	}
}

describe('npm run simulator', () => {
	let npm: ChildProcess | undefined;
	afterAll(() => {
		// Our own process group (detached below), in case the test failed half-way.
		if (npm?.pid) {
			try {
				process.kill(-npm.pid, 'SIGKILL');
			} catch {
				/* already gone */
			}
		}
	});

	test('killing npm by its pid stops the server', async () => {
		npm = spawn('npm', ['run', 'simulator', '--', '--port', '0'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		const url = await new Promise<string>((resolve, reject) => {
			let out = '';
			npm!.stdout!.on('data', (chunk: Buffer) => {
				out += chunk.toString();
				const match = /simulator on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
				if (match) resolve(match[1]);
			});
			npm!.once('exit', (code) => reject(new Error(`npm exited ${code}: ${out}`)));
		});
		expect(await answers(url)).toBe(true);

		process.kill(npm.pid!, 'SIGTERM');
		let stillAnswering = true;
		for (let i = 0; i < 40 && stillAnswering; i++) {
			await new Promise((resolve) => setTimeout(resolve, 100));
			stillAnswering = await answers(url);
		}
		expect(stillAnswering).toBe(false);
	}, 60_000);
});

/**
 * The process-wide part of the harness: the pieces of n8n's DI container that
 * n8n-core's execution engine reaches for while it runs a workflow, set up the way an
 * n8n main instance sets them up at start, minus the database.
 *
 * - `Logger` (from @n8n/backend-common) and n8n-workflow's `LoggerProxy` both point at one
 *   capturing logger, so every line n8n (and a node's `this.logger`) logs is kept. Lines
 *   logged while a run is active are routed to that run (AsyncLocalStorage), so concurrent
 *   runs in one test file keep their logs apart.
 * - `InstanceSettings` is built from a temporary n8n folder and a fixed test encryption key,
 *   so nothing is written to ~/.n8n and `Credentials` really encrypt/decrypt.
 * - `BinaryDataConfig` / `BinaryDataService`: 'default' (in memory: base64 stays in the item,
 *   what n8n does when no binary-data manager is initialised) or 'filesystem' (the real
 *   filesystem manager under a temporary folder).
 * - The expression engine is pinned to n8n-workflow's legacy evaluator. n8n 2.x servers
 *   default to the isolated-vm engine (N8N_EXPRESSION_ENGINE=vm), but isolated-vm is a
 *   native module that is not built here (.npmrc ignore-scripts=true). Both engines evaluate
 *   the same expression language and the same data proxy; the vm one adds a sandbox.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Logger } from '@n8n/backend-common';
import { InstanceSettingsConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import {
	BinaryDataConfig,
	BinaryDataService,
	Cipher,
	EncryptionKeyProxy,
	ErrorReporter,
	InstanceSettings,
	type KeyInfo,
} from 'n8n-core';
import { Expression, LoggerProxy } from 'n8n-workflow';

export type BinaryDataMode = 'default' | 'filesystem';

type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** Turns log metadata into text the way a JSON log transport would, errors included. */
export function stringifyLogMetadata(metadata: unknown): string {
	const seen = new WeakSet<object>();
	try {
		return JSON.stringify(metadata, (_key, value: unknown) => {
			if (typeof value === 'bigint') return value.toString();
			if (value instanceof Error) {
				const plain: Record<string, unknown> = {};
				for (const key of Object.getOwnPropertyNames(value)) {
					plain[key] = (value as unknown as Record<string, unknown>)[key];
				}
				plain.name = value.name;
				plain.message = value.message;
				plain.stack = value.stack;
				return plain;
			}
			if (value !== null && typeof value === 'object') {
				if (seen.has(value)) return '[Circular]';
				seen.add(value);
			}
			return value;
		});
	} catch (error) {
		return `[unserialisable metadata: ${(error as Error).message}]`;
	}
}

/**
 * Implements the logger interface n8n uses (`error/warn/info/debug` + `scoped`). Every line
 * is formatted as `level: message {metadata as JSON}`: the metadata is written out in full,
 * so an assertion that a secret never appears in the logs also covers structured fields.
 */
export class CapturingLogger {
	readonly lines: string[] = [];

	readonly runLines = new AsyncLocalStorage<string[]>();

	/** Set HARNESS_LOG_LEVEL=debug (or info, warn, error) to also print lines to stderr. */
	private readonly echoLevel = process.env.HARNESS_LOG_LEVEL as LogLevel | undefined;

	private log(level: LogLevel, message: string, metadata?: unknown) {
		const meta =
			metadata !== undefined &&
			!(typeof metadata === 'object' && metadata !== null && Object.keys(metadata).length === 0)
				? ` ${stringifyLogMetadata(metadata)}`
				: '';
		const line = `${level}: ${message}${meta}`;
		this.lines.push(line);
		this.runLines.getStore()?.push(line);
		if (this.echoLevel) {
			const order: LogLevel[] = ['error', 'warn', 'info', 'debug'];
			if (order.indexOf(level) <= order.indexOf(this.echoLevel)) process.stderr.write(`${line}\n`);
		}
	}

	error(message: string, metadata?: unknown) {
		this.log('error', message, metadata);
	}

	warn(message: string, metadata?: unknown) {
		this.log('warn', message, metadata);
	}

	info(message: string, metadata?: unknown) {
		this.log('info', message, metadata);
	}

	debug(message: string, metadata?: unknown) {
		this.log('debug', message, metadata);
	}

	scoped(_scopes: unknown) {
		return this;
	}

	getInternalLogger() {
		return this;
	}
}

export interface HarnessEnvironment {
	logger: CapturingLogger;
	n8nFolder: string;
	binaryDataMode: BinaryDataMode;
}

let environment: HarnessEnvironment | undefined;

/** A fixed key: credentials are encrypted with it exactly as n8n does with N8N_ENCRYPTION_KEY. */
export const HARNESS_ENCRYPTION_KEY = 'n8n-nodes-deckgen-test-harness-key';

function createInstanceSettingsConfig(n8nFolder: string): InstanceSettingsConfig {
	const config = Object.create(InstanceSettingsConfig.prototype) as InstanceSettingsConfig;
	Object.assign(config, {
		enforceSettingsFilePermissions: false,
		encryptionKey: HARNESS_ENCRYPTION_KEY,
		userHome: path.dirname(n8nFolder),
		n8nFolder,
	});
	return config;
}

async function configureBinaryData(env: HarnessEnvironment, mode: BinaryDataMode) {
	const config = Container.get(BinaryDataConfig);
	config.mode = mode;
	config.localStoragePath = path.join(env.n8nFolder, 'binaryData');
	// A fresh service: without init() it has no manager and keeps data inline ('default'),
	// init() sets up the real filesystem manager.
	const service = new BinaryDataService(
		config,
		Container.get(ErrorReporter),
		Container.get(Logger),
	);
	if (mode === 'filesystem') await service.init();
	Container.set(BinaryDataService, service);
	env.binaryDataMode = mode;
}

const TEMP_PREFIX = 'deckgen-harness-';

/**
 * Test processes do not reliably get to run exit handlers (jest workers are killed), so
 * folders of earlier runs are removed here once they are an hour old.
 */
function sweepStaleFolders() {
	const cutoff = Date.now() - 60 * 60_000;
	try {
		for (const entry of readdirSync(tmpdir())) {
			if (!entry.startsWith(TEMP_PREFIX)) continue;
			const folder = path.join(tmpdir(), entry);
			if (statSync(folder).mtimeMs < cutoff) rmSync(folder, { recursive: true, force: true });
		}
	} catch {
		// best effort
	}
}

/** Sets up (once per module registry, i.e. once per jest test file) what n8n-core needs. */
export async function ensureEnvironment(binaryDataMode?: BinaryDataMode): Promise<HarnessEnvironment> {
	if (!environment) {
		Expression.setExpressionEngine('legacy');

		const logger = new CapturingLogger();
		Container.set(Logger, logger as unknown as Logger);
		LoggerProxy.init(logger);

		sweepStaleFolders();
		const n8nFolder = path.join(mkdtempSync(path.join(tmpdir(), TEMP_PREFIX)), '.n8n');
		const instanceSettingsConfig = createInstanceSettingsConfig(n8nFolder);
		Container.set(InstanceSettingsConfig, instanceSettingsConfig);
		Container.set(
			InstanceSettings,
			new InstanceSettings(instanceSettingsConfig, logger as unknown as Logger),
		);

		// n8n 2.x reads encryption keys through a provider (the CLI backs it with the database).
		// The harness has one key: the instance key as the legacy, unprefixed descriptor,
		// which is how an instance without key rotation encrypts credentials.
		const legacyKey: KeyInfo = {
			id: 'harness-instance-key',
			value: Container.get(Cipher).encryptDEKWithInstanceKey(HARNESS_ENCRYPTION_KEY),
			algorithm: 'aes-256-cbc',
			format: 'no-prefix',
		};
		Container.get(EncryptionKeyProxy).setProvider({
			getActiveKey: async () => legacyKey,
			getKeyById: async (id) => (id === legacyKey.id ? legacyKey : null),
			getLegacyKey: async () => legacyKey,
		});

		environment = { logger, n8nFolder, binaryDataMode: 'default' };
		process.once('exit', () => {
			try {
				rmSync(path.dirname(n8nFolder), { recursive: true, force: true });
			} catch {
				// best effort
			}
		});
		await configureBinaryData(environment, binaryDataMode ?? 'default');
	} else if (binaryDataMode && binaryDataMode !== environment.binaryDataMode) {
		await configureBinaryData(environment, binaryDataMode);
	}

	if (Expression.getActiveImplementation() !== 'legacy') {
		throw new Error('The harness expects n8n-workflow to use the legacy expression engine');
	}
	return environment;
}

/**
 * The core's Transport over undici, for tests and benchmarks that talk to the simulator without
 * n8n in between. Same contract as the n8n transport: headers lower-cased, body as text, and a
 * missing answer (refused, reset, dropped) as a TransportError.
 */
import { Agent, request } from 'undici';

import { CancelledError } from '../../nodes/shared/client';
import { lowerCaseHeaders, TransportError, type Transport } from '../../nodes/shared/transport';

export interface UndiciTransportOptions {
	baseUrl: string;
	apiKey: string;
	signal?: AbortSignal;
	/** Keep-alive connections per origin. */
	connections?: number;
}

export function undiciTransport(options: UndiciTransportOptions): Transport & { close(): Promise<void> } {
	const root = options.baseUrl.replace(/\/+$/, '');
	const dispatcher = new Agent({ connections: options.connections ?? 64, pipelining: 1 });
	const transport = async (req: Parameters<Transport>[0]) => {
		try {
			const response = await request(`${root}${req.path}`, {
				method: req.method,
				headers: {
					accept: 'application/json, application/problem+json',
					authorization: `Bearer ${options.apiKey}`,
					...req.headers,
				},
				body: req.body,
				signal: options.signal,
				dispatcher,
			});
			return {
				status: response.statusCode,
				headers: lowerCaseHeaders(response.headers as Record<string, string | string[] | undefined>),
				text: await response.body.text(),
			};
		} catch (error) {
			if (options.signal?.aborted) throw new CancelledError();
			const code = (error as { code?: string }).code;
			throw new TransportError(`${code ?? 'network'}: ${(error as Error).message}`, code);
		}
	};
	return Object.assign(transport, { close: () => dispatcher.close() });
}

/**
 * What one item asks of the service: its context (the node, the service, the execution's key store), and a read
 * or a keyed POST. The rooms that send it: ./send.ts (the order of things), ./keyedSend.ts (one body under its
 * key), ./reprice.ts (the price is not the purchase), ./emit.ts (the item the node emits).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { EndpointName } from '../../shared/endpoints';
import type { FormLabels } from '../../shared/formLabels';
import type { KeyStore } from '../../shared/idempotency';
import type { ServiceFailure } from '../../shared/problem';
import type { RetrySettings } from '../../shared/retry';
import type { HttpMethod } from '../../shared/transport';
import type { NodeService } from '../../shared/n8n/service';
import type { ToolSpending } from '../../shared/n8n/toolSpending';
import type { SpendOptions } from './common';

export interface ItemContext {
	ctx: IExecuteFunctions;
	service: NodeService;
	itemIndex: number;
	split: boolean;
	/**
	 * The operation has Checkout and Client Action outputs (outputs.ts). Without them (Get Credits,
	 * Get Status, Download, Upload) an answer for a person, such as a 501 "not available yet", is an error.
	 */
	paymentOutputs: boolean;
	runIndex: number;
	/** The node's execution context: idempotency keys and the purchases they made (see idempotency.ts). */
	keyStore: KeyStore;
	/** The operation spends credits: every keyed POST it sends is a purchase to keep track of. */
	spends: boolean;
	/** As an AI tool that spends: who lets it buy (shared/n8n/toolSpending.ts), asked before every purchase is sent. */
	toolSpending?: ToolSpending;
}

export interface ReadRequest {
	path: string;
	/** A deck's status read (transport.ts statusRequest): an error status carrying the deck's own record is the answer. */
	jobRecordOf?: string;
	retry?: Partial<RetrySettings>;
	/** Adds our fields to a success body (e.g. the deck `state`, which may need a look at the deck's file). */
	decorate?: (body: Record<string, unknown>, httpStatus: number) => Record<string, unknown> | Promise<Record<string, unknown>>;
	/**
	 * A failure the operation reads itself (a 404 of a deck just bought: shared/n8n/justBought.ts): an answer for
	 * Success, or the error to throw; undefined: the failure is an error as usual.
	 */
	readFailure?: (failure: ServiceFailure) => { notVisibleYet: IDataObject; error?: undefined } | { error: Error; notVisibleYet?: undefined } | undefined;
}

export interface MutationRequest {
	/** Names the idempotency slot, e.g. `deck.create`. */
	operation: string;
	method?: HttpMethod;
	path: string;
	/** A JSON body, or a prepared body with its content type (multipart). */
	json?: Record<string, unknown>;
	raw?: { bytes: Buffer; contentType: string };
	options: SpendOptions;
	/** The success body must carry this member (e.g. `taskId` of a bought deck). */
	requiredMember?: string;
	decorate?: (body: Record<string, unknown>, httpStatus: number) => Record<string, unknown>;
	/** The form's label of each body field, for a validation refusal to name the fields as the form does. */
	formLabels?: FormLabels;
	/** The path is one the contract leaves open (`endpointPathFor`): a 404 or 405 names the credential field that sets it. */
	endpoint?: EndpointName;
	/** Sent exactly as recorded (Recover Purchase): never at another price, whatever the service holds. */
	asRecorded?: boolean;
}

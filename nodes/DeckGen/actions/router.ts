/**
 * The node's execute: a typed lookup from resource and operation to the operation's code, run
 * through the one item loop (`runPerItem`).
 */
import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { isToolCall, runPerItem } from '../../shared/n8n/runner';
import { refusalForItem, serviceOrRefusal } from '../../shared/n8n/service';
import { toolAnswer } from '../../shared/n8n/tool';
import { toolSpendingOf } from '../../shared/n8n/toolSpending';
import { getCredits } from './account/getCredits.operation';
import { request } from './custom/request.operation';
import { create } from './deck/create.operation';
import { download } from './deck/download.operation';
import { generateVideo } from './deck/generateVideo.operation';
import { getStatus } from './deck/getStatus.operation';
import { recover } from './deck/recover.operation';
import { revise } from './deck/revise.operation';
import { translate } from './deck/translate.operation';
import { upload } from './material/upload.operation';
import type { DeckGenMap, DeckGenResource, Operation } from './node.type';
import { hasPaymentOutputs, outputNames } from './outputs';

export const operations: { [R in DeckGenResource]: Record<DeckGenMap[R], Operation> } = {
	account: { getCredits },
	deck: { create, download, getStatus, recover, revise, translate, generateVideo },
	material: { upload },
	custom: { request },
};

function operationFor(ctx: IExecuteFunctions, resource: string, operation: string): Operation {
	const byOperation = (operations as Record<string, Record<string, Operation> | undefined>)[resource];
	const found = byOperation?.[operation];
	if (!found) {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" of resource "${resource}" is not known`, {
			description: 'Open the node and pick the resource and operation again.',
		});
	}
	return found;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operationFor(this, resource, operationName);
	const nodeVersion = this.getNode().typeVersion;
	const paymentOutputs = hasPaymentOutputs(operationName, nodeVersion);
	// Only where the switch is shown: a value saved on another operation has no outputs to split into.
	const split = paymentOutputs && this.getNodeParameter('splitOutputsByCta', 0, false) === true;
	const tool = isToolCall(this);
	// A credential that cannot be used (e.g. plain http:// to another machine) is refused before anything is
	// sent: under On Error: Continue, or as a tool, every item carries the refusal, as it would a 401.
	const found = await serviceOrRefusal(this, tool || this.continueOnFail());
	const keyStore = this.getContext('node');
	const runIndex = Number(this.getWorkflowDataProxy(0).$runIndex ?? 0);
	const concurrency = (this.getNodeParameter('options.concurrency', 0, 4) as number) || 4;
	// As an AI tool, who lets it spend: a person's review, the owner's allowance, or nobody (checked before each purchase is sent).
	const toolSpending = tool && operation.spends ? toolSpendingOf(this) : undefined;

	return await runPerItem(
		this,
		{
			outputCount: outputNames(operationName, nodeVersion, split).length,
			concurrency,
			purchases: operation.spends ? keyStore : undefined,
			singleOutput: tool,
			toolAnswers: tool,
		},
		async (itemIndex) => {
			if ('refusal' in found) throw refusalForItem(this, found.refusal, itemIndex);
			const { service } = found;
			const emitted = await operation.execute({
				ctx: this,
				service,
				itemIndex,
				split,
				paymentOutputs,
				runIndex,
				keyStore,
				spends: operation.spends,
				toolSpending,
			});
			// As an AI tool: the same facts, with a message in the tool's argument terms (shared/n8n/tool.ts).
			return tool ? toolAnswer(this, `${resource}.${operationName}`, emitted, service.baseUrl) : emitted;
		},
	);
}

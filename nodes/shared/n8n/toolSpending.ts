/**
 * Safe by default (issue 38): as an AI tool, an operation that spends buys only where a person
 * reviews its calls in the workflow (n8n's human review, 2.6 and later), or where the workflow's
 * owner switched on Buy Without Review on that node, up to a Credit Limit per Execution. Anywhere
 * else (a paying tool connected straight to an AI Agent, an MCP Server Trigger, any n8n 1.x) the call
 * buys nothing and the model is told to ask a person. Decided here, for every spending request of a
 * tool call, before anything is sent (keyedSend.ts `sendOnce` calls `admitToolPurchase`); nothing changes
 * for the node's regular (non-tool) runs.
 *
 * How a reviewed call is told apart, read from n8n 2.41.1:
 *
 * - The review is a tool node of its own between the tool and the agent: the tool's `ai_tool` output
 *   goes into it, its output into the agent (`n8n/dist/tool-generation/hitl-tools.js`
 *   `convertNodeToHitlTool`: a `…HitlTool` node whose only input is the tool, `inputs: [ai_tool]`).
 * - The agent's call is sent to the review node, never to the tool. Once a person approves, the agent
 *   asks n8n to run the tool with `metadata.parentNodeName` set to the review node
 *   (`@n8n/n8n-nodes-langchain/dist/utils/agent-execution/processHitlResponses.js`); declined, the
 *   tool does not run. n8n then runs the tool as a node of its own whose source is that parent
 *   (n8n-core `requests-response.js`: `parentNode = actionMetadata?.parentNodeName ??
 *   currentNode.name`, and `workflow-execute.js` `addNodeToBeExecuted`: `source.main[0].previousNode
 *   = parentNodeName`). A call straight from an agent has the agent as its source; no other code of
 *   n8n 2.41.1 sets `parentNodeName`.
 * - Tools called any other way (n8n 1.x agents, the MCP Server Trigger, older agent versions) run
 *   inside their caller (n8n-core `get-input-connection-data.js` `makeHandleToolInvocation`), with the
 *   caller's execute data, not their own. A tool behind a review is never run that way: the review's
 *   stand-in answers '' without running it (`createHitlToolkit`).
 *
 * So a call is reviewed when n8n ran this tool as a node of its own (its execute data names it), its
 * source is a node this tool's `ai_tool` output goes into, and that node takes nothing but tools (an
 * agent has a chat model and a main input; a review node has only the tool). All three from the
 * workflow n8n runs and the run's own data, through `IExecuteFunctions`; none of it from the model.
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeProperties, type NodeConnectionType } from 'n8n-workflow';

import { hintOnce } from './hints';

/** Who lets this tool call spend. */
export type ToolSpending = { by: 'review'; reviewNode: string } | { by: 'allowance'; limit: number } | { by: 'nobody' };

export const BUY_WITHOUT_REVIEW = 'buyWithoutReview';
export const CREDIT_LIMIT = 'creditLimitPerExecution';

/** The review node this call came through (see above), or undefined. */
export function reviewNodeOf(ctx: IExecuteFunctions): string | undefined {
	const self = ctx.getNode().name;
	const executeData = typeof ctx.getExecuteData === 'function' ? ctx.getExecuteData() : undefined;
	// Run inside its caller (n8n 1.x, the MCP Server Trigger): the execute data is the caller's.
	if (executeData?.node?.name !== self) return undefined;
	const source = executeData.source?.main?.[0]?.previousNode;
	if (!source) return undefined;
	const parents = (connectionType: NodeConnectionType | 'ALL') =>
		// 'ALL' is n8n-workflow's own value for every connection type (`getConnectedNodes`).
		ctx.getParentNodes(source, { connectionType: connectionType as NodeConnectionType, depth: 1 }).filter((node) => !node.disabled).map((node) => node.name);
	const tools = parents('ai_tool');
	if (!tools.includes(self)) return undefined;
	const everything = parents('ALL');
	return everything.every((name) => tools.includes(name)) ? source : undefined;
}

/** Decided once per node run: by a review, by the owner's allowance, or by nobody. */
export function toolSpendingOf(ctx: IExecuteFunctions): ToolSpending {
	const reviewNode = reviewNodeOf(ctx);
	if (reviewNode) return { by: 'review', reviewNode };
	if (ctx.getNodeParameter(BUY_WITHOUT_REVIEW, 0, false) !== true) return { by: 'nobody' };
	const limit = Number(ctx.getNodeParameter(CREDIT_LIMIT, 0, 0));
	return { by: 'allowance', limit: Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0 };
}

/**
 * What this node spent without review in this execution, in its execution context (every call of the
 * node in one execution shares it): the credits, and the Idempotency-Keys they were spent under.
 */
const SPENT_MEMBER = 'deckgenSpentWithoutReview';

interface Spent {
	credits: number;
	keys: string[];
}

function spentIn(store: Record<string, unknown>): Spent {
	const spent = store[SPENT_MEMBER] as Partial<Spent> | undefined;
	return {
		credits: typeof spent?.credits === 'number' && spent.credits > 0 ? spent.credits : 0,
		keys: Array.isArray(spent?.keys) ? spent.keys.filter((key): key is string => typeof key === 'string') : [],
	};
}

/** A purchase let through on the allowance: its price stays counted unless the answer shows nothing was charged. */
export interface AdmittedPurchase {
	key: string;
	price: number;
}

export const REVIEW_REQUIRED_MESSAGE =
	'Nothing was bought and nothing was charged. This workflow lets an AI agent buy only after a person reviews the call, and no person reviews this tool’s calls, so calling again gives the same answer. Tell the person what you wanted to buy and why, with its price in credits: a person can buy it, or change the workflow so that a person reviews this tool’s calls.';

export function creditLimitMessage(o: { price: number; limit: number; spent: number }): string {
	return (
		`Nothing was bought and nothing was charged. This workflow lets an AI agent buy without a person's review only up to ${o.limit} credits in one run of the workflow, all calls of this tool together: ` +
		`${o.spent} are spent or on their way, and this call would cost ${o.price}. Tell the person what you wanted to buy and why, with its price in credits: only a person can buy more.`
	);
}

const REVIEW_HINT =
	'Bought nothing: no person reviews this tool’s calls. Put n8n’s human review between this tool and the agent (hover the connection, click +, add a review step), or turn on Buy Without Review with a Credit Limit per Execution.';

/** A paying tool call that may not buy: its answer to the model, thrown before anything is sent. */
export class ToolPurchaseRefused extends NodeOperationError {
	readonly answer: IDataObject;

	constructor(ctx: IExecuteFunctions, itemIndex: number, answer: IDataObject) {
		super(ctx.getNode(), String(answer.message), { itemIndex });
		this.answer = answer;
	}
}

/**
 * Before a spending request of a tool call is sent: refused unless reviewed or within the
 * allowance. On the allowance the price is counted at once, under the request's key (so items sent
 * side by side cannot pass the limit together, and the same purchase again is not counted twice),
 * and given back by `settleToolPurchase` when nothing was charged.
 */
export function admitToolPurchase(
	ctx: IExecuteFunctions,
	spending: ToolSpending,
	store: Record<string, unknown>,
	purchase: { key: string; price: number },
	itemIndex: number,
): AdmittedPurchase | undefined {
	if (spending.by === 'review') return undefined;
	const node = ctx.getNode().name;
	if (spending.by === 'nobody') {
		hintOnce(ctx, { message: REVIEW_HINT, type: 'warning', location: 'outputPane' });
		ctx.logger.info(`Deck Generator: the tool "${node}" bought nothing: no person reviews its calls and Buy Without Review is off`, { node, itemIndex });
		throw new ToolPurchaseRefused(ctx, itemIndex, { outcome: 'review_required', message: REVIEW_REQUIRED_MESSAGE });
	}
	const spent = spentIn(store);
	// The same purchase again (its key already counted): the service replays it, charging nothing.
	if (spent.keys.includes(purchase.key)) return undefined;
	const { price } = purchase;
	if (spent.credits + price > spending.limit) {
		const facts = { price, limit: spending.limit, spent: spent.credits };
		hintOnce(ctx, {
			message: `Bought nothing: a call at ${price} credits would pass this tool’s Credit Limit per Execution (${spending.limit} credits, ${spent.credits} spent or on their way).`,
			type: 'warning',
			location: 'outputPane',
		});
		ctx.logger.info(`Deck Generator: the tool "${node}" bought nothing: ${price} credits would pass its Credit Limit per Execution (${spending.limit}, ${spent.credits} spent)`, { node, itemIndex, ...facts });
		throw new ToolPurchaseRefused(ctx, itemIndex, {
			outcome: 'credit_limit_reached',
			expectedCredits: price,
			creditLimitPerExecution: spending.limit,
			spentWithoutReview: spent.credits,
			message: creditLimitMessage(facts),
		});
	}
	store[SPENT_MEMBER] = { credits: spent.credits + price, keys: [...spent.keys, purchase.key] };
	return { key: purchase.key, price };
}

/** After the answer: a request that charged nothing (refused, never committed, replayed) gives its price back. */
export function settleToolPurchase(store: Record<string, unknown>, admitted: AdmittedPurchase, charged: boolean): void {
	if (charged) return;
	const spent = spentIn(store);
	store[SPENT_MEMBER] = { credits: Math.max(0, spent.credits - admitted.price), keys: spent.keys.filter((key) => key !== admitted.key) };
}

const NOTICE =
	'Buys nothing unless a person reviews each call (hover this tool’s connection to the agent, click + and add a human review step) or Buy Without Review is on.';

/**
 * The tool variant's fields for one spending operation (shown with `show`): the notice while the
 * allowance is off, the switch, and the limit once it is on.
 */
export function toolSpendingProperties(show: Record<string, string[]>): { notice: INodeProperties; fields: INodeProperties[] } {
	const where = { ...show, '@tool': [true] };
	return {
		notice: {
			displayName: NOTICE,
			name: 'reviewNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...where, [BUY_WITHOUT_REVIEW]: [false] } },
		},
		fields: [
			{
				displayName: 'Buy Without Review',
				name: BUY_WITHOUT_REVIEW,
				type: 'boolean',
				default: false,
				displayOptions: { show: where },
				description:
					'Whether the agent or MCP client may buy through this tool when no person reviews its calls in n8n, up to Credit Limit per Execution. Off: such a call buys nothing and the model is told to ask a person. Turn on only where the caller asks its user before each call, or for an agent you trust with this money.',
			},
			{
				displayName: 'Credit Limit per Execution',
				name: CREDIT_LIMIT,
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				displayOptions: { show: { ...where, [BUY_WITHOUT_REVIEW]: [true] } },
				description:
					'The most credits this tool may spend without review in one execution of the workflow, all its calls together. A call whose price would pass it buys nothing. Each call of an MCP client is an execution of its own.',
				hint: '0 buys nothing: set the most you let the agent spend without asking',
			},
		],
	};
}

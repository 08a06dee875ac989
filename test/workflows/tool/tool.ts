/**
 * The nodes as n8n runs them when they are AI tools (an AI Agent's tool, or a tool of the MCP
 * Server Trigger): the tool variant's description is the node's with `Tool` appended to its name
 * (n8n's `convertNodeToAiTool`; that is what `@tool` display options test), and a tool call runs
 * the node's `execute` on one item, the tool's arguments, which `$fromAI(...)` reads. Here a
 * Manual Trigger hands the node that item, and the node is the example workflow's own tool node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NodeHelpers, type IDataObject, type INode, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { DeckGen } from '../../../nodes/DeckGen/DeckGen.node';
import { DeckGenWait } from '../../../nodes/DeckGenWait/DeckGenWait.node';
import { runWorkflow, type RunResult, type WorkflowJson } from '../../harness';
import type { Simulator } from '../../simulator';
import { credentialFor } from '../credential';
import { assertNoKeyLeak } from '../deckgen/fixture';

export const EXAMPLE = join(__dirname, '..', 'examples', 'mcp-agent-tools.json');
/** The AI Agent example, whose Create Deck sits behind n8n's human review (its surcharge is a model's argument). */
export const AGENT_EXAMPLE = join(__dirname, '..', 'examples', 'ai-agent-review.json');
export const DECK_TOOL = 'n8n-nodes-deckgen.deckGenTool';
export const WAIT_TOOL = 'n8n-nodes-deckgen.deckGenWaitTool';

/** What n8n's loader makes of a `usableAsTool` node: the same node, its type name ending in Tool. */
export function toolVariant<T extends INodeType>(node: T): T {
	const description: INodeTypeDescription = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
	};
	return Object.assign(Object.create(Object.getPrototypeOf(node) as object) as T, node, { description });
}

export const deckGenTool = toolVariant(new DeckGen());
export const deckGenWaitTool = toolVariant(new DeckGenWait());

export function exampleWorkflow(file = EXAMPLE): WorkflowJson {
	return JSON.parse(readFileSync(file, 'utf8')) as WorkflowJson;
}

/** A tool node of the example (the MCP one unless `file` says), by name, with parameter changes. */
export function exampleTool(name: string, parameters: INode['parameters'] = {}, file = EXAMPLE): INode {
	const node = exampleWorkflow(file).nodes.find((n) => n.name === name);
	if (!node) throw new Error(`the example has no node ${name}`);
	return { ...node, parameters: { ...node.parameters, ...parameters } };
}

/**
 * The description n8n gives the model for a tool node (n8n-workflow's own function, with the
 * node's parameters as n8n fills them when it loads the workflow).
 */
export function toolDescriptionOf(node: INode): string {
	const type = node.type === WAIT_TOOL ? deckGenWaitTool : deckGenTool;
	const parameters = NodeHelpers.getNodeParameters(type.description.properties, node.parameters, true, false, node, type.description);
	return NodeHelpers.getToolDescriptionForNode({ ...node, parameters: parameters ?? {} }, type) as string;
}

export interface ToolCall {
	result: RunResult;
	/** What the model receives: the JSON of output 0's items (n8n drops the other outputs and binary data). */
	answer: Array<Record<string, unknown>>;
	/** Items on any other output (must stay empty: the model never sees them). */
	elsewhere: number;
}

/** The tool variants, as runWorkflow's `nodeTypes`. */
export const TOOL_NODE_TYPES = { [DECK_TOOL]: deckGenTool, [WAIT_TOOL]: deckGenWaitTool };

/**
 * A Manual Trigger that hands the tool node one item, the tool call's arguments: a tool no person
 * reviews (its source is not a node it is connected into as a tool).
 *
 * `reviewedBy`: the call as n8n 2.x runs it once a person approved it in n8n's human review
 * (nodes/shared/n8n/toolSpending.ts): its source is the review node, into which the tool's `ai_tool`
 * output goes and which takes nothing but tools. The review node is the trigger here (named as the
 * example's); in n8n it is the review tool (`…HitlTool`), which test/e2e/agent-review.e2e.ts runs for real.
 */
export function toolCallWorkflow(node: INode, reviewedBy?: string): WorkflowJson {
	const trigger = reviewedBy ?? 'Tool call';
	return {
		nodes: [
			{ id: 'trigger', name: trigger, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ ...node, position: [200, 0] },
		],
		connections: {
			[trigger]: { main: [[{ node: node.name, type: 'main', index: 0 }]] },
			...(reviewedBy ? { [node.name]: { ai_tool: [[{ node: reviewedBy, type: 'ai_tool', index: 0 }]] } } : {}),
		},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

/** The review node of the AI Agent example, in front of its Create Deck. */
export const REVIEW_NODE = 'Review purchase by email';

/** One tool call: the node gets one item, the arguments; `reviewedBy` names the review it came through, if any. */
export async function callTool(sim: Simulator, node: INode, args: Record<string, unknown>, key = sim.keys.personal, reviewedBy?: string): Promise<ToolCall> {
	const result = await runWorkflow(toolCallWorkflow(node, reviewedBy), {
		credentials: { deckGenApi: credentialFor(sim, key, { accountUrl: 'https://app.deckgen.example/account' }) },
		inputItems: [{ json: args as IDataObject }],
		nodeTypes: TOOL_NODE_TYPES,
	});
	assertNoKeyLeak(sim, result, [key]);
	const [first = [], ...rest] = result.runCount(node.name) ? result.outputs(node.name) : [];
	return {
		result,
		answer: first.map((item) => item.json as Record<string, unknown>),
		elsewhere: rest.reduce((sum, output) => sum + (output?.length ?? 0), 0),
	};
}

/**
 * The nodes as AI tools (an AI Agent's tool, or an MCP client through n8n's MCP Server Trigger).
 * A tool answers a model, not a workflow, so four things differ from an ordinary run:
 *
 * - the tool's description is what the model reads before calling it: it says what spends, what
 *   the price argument means, how long a deck takes and how often to ask for its status;
 * - every answer the service decided is an item on output 0 (the only one the model sees) with
 *   `outcome` and a `message` saying what to do next, never a thrown error;
 * - messages name the tool's arguments (the `$fromAI` keys), not the form's labels, and say what
 *   only a person may decide;
 * - a file cannot reach the model (n8n drops binary data from tool answers, n8n-io/n8n#38357), so
 *   the answer says which link to hand a person and whether opening it needs signing in.
 *
 * n8n builds a tool's description from the node's `toolDescription` parameter when the node
 * declares one (n8n 1.123 and 2.x: `getToolDescriptionForNode`; n8n then adds neither its own
 * Description field nor "Set Automatically", which would say only "Create a deck in Deck
 * Generator"). So each operation declares one, shown only on the tool variant (`@tool`), whose
 * default is the text below: a user may edit it, as n8n allows for every tool.
 */
import {
	NodeApiError,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeProperties,
	type NodeError,
} from 'n8n-workflow';

import { mayCarryCredential } from '../download';
import { valueAtPath } from '../path';
import type { EmittedItem } from './item';
import { ToolPurchaseRefused } from './toolSpending';

/** How often a model should ask for a deck's status, said the same way everywhere. */
export const POLL_ADVICE =
	'A deck takes 10 to 35 minutes: ask again about once a minute (never more often than every 5 seconds) until state is succeeded or failed.';

const NORMAL_ANSWER =
	'Every answer has outcome and message. An outcome other than success (checkout, client_action, price_drift, not_available_yet, error) is a normal answer, not a fault: pass its message on to a person instead of retrying.';

/** Said by every tool that may spend: what an answer looks like when this workflow does not let it (toolSpending.ts). */
const NEEDS_A_PERSON =
	'If the answer is outcome review_required (this workflow buys only after a person reviews the call) or credit_limit_reached (past what it may spend without one), nothing was bought: tell the person what you wanted to buy and why.';

const SPENDS =
	`This SPENDS CREDITS. expectedCredits is the price in credits you agree to pay: use the price the person agreed to. If it differs from the live price, nothing is bought or charged and the answer is outcome price_drift with the live price in credits (a free quote; call with expectedCredits 0 to learn the price). ${NEEDS_A_PERSON}`;

const REPLAYS =
	'The same call with the same arguments is one purchase: it returns the deck bought earlier (charge replayed) and charges nothing; to buy the same brief again on purpose, pass a new purchaseReference where the tool has that argument. Every answer of a purchase says in charge and message what the service charged: charged (now), replayed (bought before, nothing now) or charged_or_replayed (charged once; the first answer was lost).';

/** The default tool description of each operation, by `resource.operation`. */
export const TOOL_DESCRIPTIONS: Record<string, string> = {
	'account.getCredits': `Read the Deck Generator account's credit balance and who the API key belongs to. Spends nothing. ${NORMAL_ANSWER}`,
	'deck.create': `Buy a new slide deck from a brief (title, core message, audience, slide count). ${SPENDS} The answer comes at once with a taskId, but the deck is not ready yet. Then call Get Status with that taskId. ${POLL_ADVICE} On succeeded, hand the person deckUrl. ${REPLAYS} A slide count above the free cap may need a surcharge, which only the person who pays may accept: set confirmSlideSurcharge true only once they accepted the higher price, or where a person reviews every call of this tool before it runs (n8n's human review). ${NORMAL_ANSWER}`,
	'deck.getStatus': `Read the state of a deck bought with Create, by its taskId. Spends nothing. state is running (ask again later), succeeded (the deck is ready: hand the person deckUrl; deckUrlNeedsSignIn says whether opening it needs signing in to the service) or failed (tell the person). ${POLL_ADVICE} A taskId the service does not show answers outcome error with code not_found, and says when asking again in a minute helps. ${NORMAL_ANSWER}`,
	'deck.download': `Fetch a finished deck's file by its taskId. Spends nothing. The file itself cannot reach you (n8n drops files from tool answers): the answer carries deckUrl, the link to hand the person. ${NORMAL_ANSWER}`,
	'deck.recover': `Get back a deck bought in an n8n execution that n8n lost, from the line n8n's log kept of that purchase (it reads "Deck Generator: sending purchase … DECKGEN_PURCHASE {…}"): loggedPurchase is that whole line, unchanged. The purchase is sent again with its own Idempotency-Key and body, so the service replays it and charges nothing (only if the first request never reached the service is the deck bought now, once). ${NEEDS_A_PERSON} The answer has the deck's taskId: call Get Status with it. ${POLL_ADVICE} ${NORMAL_ANSWER}`,
	'deck.revise': `Buy a new version of a finished deck from instructions, by its taskId. ${SPENDS} The included revision round costs 0. The new version takes time like a new deck: poll Get Status with the taskId. ${POLL_ADVICE} ${NORMAL_ANSWER}`,
	'deck.translate': `Buy copies of a finished deck in more languages, by its taskId (subscribers only). ${SPENDS} The copies take time: poll Get Status with the taskId. ${POLL_ADVICE} ${NORMAL_ANSWER}`,
	'deck.generateVideo': `Buy a video of a finished deck, by its taskId. ${SPENDS} The video takes time: poll Get Status with the taskId. ${POLL_ADVICE} ${NORMAL_ANSWER}`,
	'material.upload': `Upload a file from the workflow's data as material for a deck; the answer's materialId goes into Create's material ids. Spends nothing. ${NORMAL_ANSWER}`,
	'custom.request': `Call a path of the Deck Generation Service's /v1 API. A POST whose body carries expected_credits SPENDS CREDITS at that price; a wrong price answers outcome price_drift with the live price and charges nothing. ${NEEDS_A_PERSON} ${NORMAL_ANSWER}`,
};

export const WAIT_TOOL_DESCRIPTION = `Check once whether a deck bought with Create is done, by its taskId. Spends nothing, and never waits: it reads the status once and answers at once. state is running (ask again later), succeeded (hand the person deckUrl; deckUrlNeedsSignIn says whether opening it needs signing in to the service) or failed (tell the person). ${POLL_ADVICE} An outcome other than completed is a normal answer, not a fault.`;

const toolDescriptionHelp =
	'What the AI model reads about this tool before calling it. The default says what the operation spends, what expectedCredits means, and how long and how often to poll; edit it to add your own rules.';

/** The `toolDescription` parameter of one operation, on the tool variant only. */
export function toolDescriptionProperty(text: string, show: Record<string, string[]> = {}): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		displayOptions: { show: { ...show, '@tool': [true] } },
		description: toolDescriptionHelp,
	};
}

/** One `toolDescription` parameter per operation of the Deck Generator node. */
export function deckGenToolDescriptionProperties(): INodeProperties[] {
	return Object.entries(TOOL_DESCRIPTIONS).map(([key, text]) => {
		const [resource, operation] = key.split('.');
		return toolDescriptionProperty(text, { resource: [resource], operation: [operation] });
	});
}

/** As an AI tool (n8n names the tool variant `<type>Tool`), only output 0 reaches the model. */
export function isToolNode(node: INode): boolean {
	return node.type.endsWith('Tool');
}

const FROM_AI = /\$fromai\s*\(\s*(['"`])([A-Za-z0-9_-]{1,64})\1/i;

/**
 * The argument a model fills for a parameter: the key of the `$fromAI(...)` in its expression
 * (dotted names reach into collections, e.g. `options.purchaseReference`); undefined when the
 * workflow fixes the value.
 */
export function argumentOf(node: INode, parameter: string): string | undefined {
	const raw = valueAtPath(node.parameters, parameter);
	if (typeof raw !== 'string') return undefined;
	return FROM_AI.exec(raw)?.[2];
}

/** Form labels, and the parameter each one names. */
const LABELS: Array<[label: string, parameter: string]> = [
	['Confirm Slide Surcharge', 'confirmSlideSurcharge'],
	['Expected Credits', 'expectedCredits'],
	['Max Credits', 'maxCredits'],
	['Slide Count', 'slideCount'],
	['Task ID', 'taskId'],
	['Core Message', 'coreMessage'],
	['Material IDs', 'additionalFields.materialIds'],
	['Additional Languages', 'additionalFields.additionalLanguages'],
	['Purchase Reference', 'options.purchaseReference'],
	['Idempotency Key', 'options.idempotencyKey'],
	['Max Retry Wait', 'options.maxRetryWaitSeconds'],
];

/**
 * A message in the terms a model can act on: each form label becomes the argument that fills
 * it, or, where the workflow fixes the value, says so (only a person editing the workflow can
 * change it).
 */
export function inArgumentTerms(node: INode, text: string): string {
	let result = text;
	for (const [label, parameter] of LABELS) {
		if (!result.includes(label)) continue;
		const argument = argumentOf(node, parameter);
		if (argument) result = result.split(`"${label}"`).join(argument).split(label).join(argument);
		else result = result.replace(label, `${label} (fixed in the workflow: only a person can change it)`);
	}
	return result;
}

function argument(node: INode, parameter: string, fallback: string): string {
	return argumentOf(node, parameter) ?? fallback;
}

/** What a link needs: one on the Base URL's origin is fetched with the API key, any other is not. */
function linkFacts(url: string | undefined, baseUrl: string): IDataObject {
	if (!url) return {};
	return { deckUrlNeedsSignIn: mayCarryCredential(url, baseUrl) };
}

function linkAdvice(url: string, baseUrl: string): string {
	return mayCarryCredential(url, baseUrl)
		? `Hand the person this link: ${url} (it is on the service itself, so opening it needs signing in to the service; never share the API key).`
		: `Hand the person this link: ${url} (anyone with the link can open it, no sign-in, possibly only for a limited time).`;
}

/**
 * What a status answer (Get Status, the Wait node) tells a model to do next, from the one judgement
 * of the record (`state`, and `statusNote` where the word and the record disagree).
 */
export function statusAdvice(json: IDataObject, baseUrl: string): string {
	const taskId = String(json.taskId ?? '');
	// the judged word: Get Status's `statusWord`, the Wait node's `status`
	const said = json.statusWord ?? json.status;
	const word = said === undefined || said === null ? '' : String(said);
	const url = typeof json.deckUrl === 'string' ? json.deckUrl : undefined;
	// sentences, each ending as it ends (the note's own "(The word was read from ….)" included)
	const sentence = (text: string) => (/\.\)?$/.test(text) ? text : `${text}.`);
	const note = typeof json.statusNote === 'string' ? json.statusNote : undefined;
	const sentences = (...parts: Array<string | undefined>) => parts.filter((part): part is string => !!part).map(sentence).join(' ');
	switch (json.state) {
		case 'succeeded':
			return url ? sentences(`Deck ${taskId} is ready`, note, linkAdvice(url, baseUrl)) : sentences(`Deck ${taskId} is ready, but its status carries no link: tell the person it is done (taskId ${taskId})`, note);
		case 'failed': {
			const reason = typeof json.failureReason === 'string' ? `: ${json.failureReason.replace(/\.$/, '')}` : '';
			// never an empty word (issue 43)
			const said = word ? `status "${word}"` : 'no status word';
			return sentences(`Deck ${taskId} failed (${said})${reason}`, note, 'Tell the person; there is nothing more to wait for');
		}
		case 'running':
			// a deck just bought that the service does not show yet says so in its note (shared/purchaseFacts.ts)
			return json.notVisibleYet === true || !word
				? sentences(`Deck ${taskId} is not finished yet`, note, POLL_ADVICE)
				: sentences(`Deck ${taskId} is still being generated (status "${word}")`, note, POLL_ADVICE);
		default:
			return note
				? sentences(`Deck ${taskId} is not finished yet`, note, 'Treat it as still running and ask again in about a minute')
				: word
					? `Deck ${taskId} reports the status "${word}", which this tool does not know: treat it as still running and ask again in about a minute, or show it to the person.`
					: `Deck ${taskId} is not finished yet, as far as its status says: treat it as still running and ask again in about a minute.`;
	}
}

const PERSON_ONLY = 'Nothing was charged. Only a person can do this: show them this message, and do not call again until they have.';

/**
 * A successful or refused item as a model should read it: the same facts, with a `message` in
 * argument terms and the next step. `operation` is `resource.operation`.
 */
export function toolAnswer(
	ctx: IExecuteFunctions,
	operation: string,
	emitted: EmittedItem,
	baseUrl: string,
): EmittedItem {
	const node = ctx.getNode();
	const json: IDataObject = { ...emitted.json };
	// what the service did to the credits (shared/charge.ts), or an upload's replay: the item's own sentence
	const chargeNote = (json.charge !== undefined || json.replayed === true) && typeof json.message === 'string' ? `${json.message} ` : '';
	const taskId = json.taskId === undefined ? undefined : String(json.taskId);
	const expected = argument(node, 'expectedCredits', 'expectedCredits');

	switch (json.outcome) {
		case 'success':
			if (operation === 'deck.getStatus') {
				Object.assign(json, linkFacts(json.deckUrl as string | undefined, baseUrl));
				json.message = statusAdvice(json, baseUrl);
			} else if (operation === 'deck.download') {
				Object.assign(json, linkFacts(json.deckUrl as string | undefined, baseUrl));
				const url = typeof json.deckUrl === 'string' ? json.deckUrl : undefined;
				json.message = `The file (${String(json.fileName ?? 'the deck')}) stays in the workflow: n8n does not pass files to an AI tool's caller. ${url ? linkAdvice(url, baseUrl) : 'Hand the person the deck link from Get Status instead.'}`;
			} else if (operation === 'deck.create' || operation === 'deck.revise' || operation === 'deck.translate' || operation === 'deck.generateVideo') {
				json.message = `Deck ${taskId}: ${chargeNote}It is not ready yet: call Get Status with taskId "${taskId}". ${POLL_ADVICE}`;
			} else if (operation === 'deck.recover') {
				json.message = `${String(json.message ?? '')} Whether it is ready: call Get Status with taskId "${taskId}". ${POLL_ADVICE}`;
			} else if (operation === 'material.upload') {
				json.message = `${chargeNote}Uploaded: pass materialId "${String(json.materialId ?? json.id ?? '')}" in Create's material ids.`;
			} else if (operation === 'account.getCredits') {
				json.message = 'The credit balance is in this answer; nothing was spent.';
			} else if (chargeNote) {
				json.message = chargeNote.trim();
			}
			break;
		case 'price_drift': {
			const live = json.credits;
			const max = argumentOf(node, 'maxCredits');
			json.message = argumentOf(node, 'expectedCredits')
				? `The live price is ${String(live)} credits, not the ${String(json.expectedCredits)} sent as ${expected}. Nothing was bought or charged. If the person agreed to pay ${String(live)} credits, call again with ${expected} ${String(live)}${max ? ` (or raise ${max} to allow it)` : ''}; otherwise ask them first.`
				: `The live price is ${String(live)} credits, not the ${String(json.expectedCredits)} this workflow agreed to. Nothing was bought or charged. The price is fixed in the workflow (Expected Credits): only a person can change it, so tell them the live price.`;
			break;
		}
		case 'client_action':
			json.message = clientActionMessage(node, json, expected);
			break;
		case 'checkout':
			json.message = `${inArgumentTerms(node, String(json.message ?? ''))} ${PERSON_ONLY}`;
			break;
		case 'version_cap_reached':
			json.message = `Deck ${taskId ?? ''} has reached its maximum number of versions: create a new deck instead. Nothing was charged.`;
			break;
		case 'not_available_yet':
			json.message = 'This capability is not available in this deployment yet. Do not retry it; tell the person. Nothing was charged.';
			break;
		default:
			if (typeof json.message === 'string') json.message = inArgumentTerms(node, json.message);
	}
	return { ...emitted, output: 0, json };
}

function clientActionMessage(node: INode, json: IDataObject, expected: string): string {
	const price = typeof json.credits === 'number' ? json.credits : undefined;
	switch (json.cta) {
		case 'confirm_slide_surcharge': {
			const confirm = argumentOf(node, 'confirmSlideSurcharge');
			// Behind n8n's human review the call itself is how the person is asked: the reviewer sees it confirm the surcharge.
			const how = confirm
				? `Show them the price and ask, or, where a person reviews every call of this tool before it runs (n8n's human review), call again and the reviewer decides. To accept it, call Create again with the same arguments, ${confirm} true and ${expected} ${price ?? 'the new price'}.`
				: 'This tool cannot confirm a surcharge (its confirmation is fixed in the workflow): the person must approve it in the workflow, or ask for fewer slides.';
			return `The slide count carries a surcharge${price !== undefined ? `: the price is ${price} credits` : ''}. Nothing was charged. Only the person who pays may accept a surcharge. ${how} Never confirm a surcharge on your own.`;
		}
		case 'upgrade_for_slides': {
			const slides = argumentOf(node, 'slideCount');
			return `The deck is above the free slide cap. Nothing was charged. A person must upgrade the plan${slides ? `, or call Create again with a lower ${slides}` : ''}.`;
		}
		case 'manage_decks':
			return 'Too many decks are in progress or stored. Nothing was charged. Wait for running decks to finish (Get Status) and call again later, or ask a person to free one up.';
		default:
			return `${inArgumentTerms(node, String(json.message ?? ''))} ${PERSON_ONLY}`;
	}
}

/** Context facts of an error worth a model's (and a person's) attention. */
const ERROR_FACTS = [
	'code',
	'status',
	'reason',
	'retryable',
	'requestId',
	'fields',
	'detail',
	'purchasedTaskIds',
	'unansweredPurchases',
	'idempotencyKey',
	'purchase',
	'mayHaveBeenBought',
	'response',
	'endpointSetting',
] as const;

/** What a model can do about a failure the service decided, by its code; undefined: the remedy says it. */
function nextStep(node: INode, facts: IDataObject): string | undefined {
	switch (facts.code) {
		case 'missing_task_id':
			return `No taskId was given: pass the taskId that Create returned as ${argument(node, 'taskId', 'taskId')}.`;
		case 'not_found': {
			const taskId = argument(node, 'taskId', 'taskId');
			// a deck bought here that the service no longer shows (shared/purchaseFacts.ts): never "no such deck"
			if (facts.purchase && typeof facts.purchase === 'object') {
				return `This deck was bought and paid for (its purchase is named above), but the service does not show it: tell the person, with its Idempotency-Key and request id. Do not buy it again.`;
			}
			// A path the contract leaves open (shared/endpoints.ts): the service may take this operation elsewhere.
			if (typeof facts.endpointSetting === 'string') {
				return `Either this service takes this operation at another path (only a person can fix that, in the Deck Generator credential's ${facts.endpointSetting} field in n8n) or, if it names a deck, no deck with that ${taskId} exists for this account. Calling again with the same arguments gives the same answer.`;
			}
			// The grace for a deck just bought is this process's memory (justBought.ts): a purchase made on another
			// worker, or before a restart, is not known here. So not "no such deck": what a model can act on (issue 49).
			return (
				`The service does not show a deck with that ${taskId} to this account, and this n8n process knows no purchase of it. ` +
				`If Create returned it in the last few minutes, it may not be visible yet (a deck just bought can take a moment; a purchase made on another n8n worker or before a restart is not known here): call again in a minute. ` +
				`If it still is not shown after five minutes, or the taskId did not come from Create with this account, it is not this account's deck: use the taskId that Create returned.`
			);
		}
		case 'unauthorized':
			return 'The service refused the API key (wrong or revoked). Only a person can fix it, in the Deck Generator credential in n8n; calling again does not help.';
		case 'validation_failed':
			return 'Fix the arguments named above and call again.';
		case 'rate_limited':
			return facts.reason === 'spend_velocity_exceeded' ? undefined : 'The service asks to wait longer than this tool waits: call again in a few minutes.';
		case 'internal_error':
		case 'surface_disabled':
		case 'service_unavailable':
		case 'no_response':
			return 'The service is unavailable right now (already retried). Call again in a few minutes; repeating the same call never buys twice.';
		default:
			return undefined;
	}
}

/**
 * A failed item as an answer on output 0: `outcome: "error"`, what happened and what to do next
 * in `message`, and the facts (code, status, request id, any deck bought or maybe bought).
 */
export function toolErrorItem(node: INode, error: Error): EmittedItem {
	// A purchase no one may make (no review, or past the allowance): its answer is already in the model's terms.
	if (error instanceof ToolPurchaseRefused) return { output: 0, json: { ...error.answer } };
	const nodeError = error as NodeError;
	const context = (nodeError.context ?? {}) as IDataObject;
	const json: IDataObject = { outcome: 'error' };
	for (const fact of ERROR_FACTS) if (context[fact] !== undefined) json[fact] = context[fact];
	if (json.status === undefined && error instanceof NodeApiError && error.httpCode) json.status = Number(error.httpCode);
	const description = nodeError.description ?? '';
	const step = nextStep(node, json);
	// The remedy for a person at the form, replaced by the step a model can take; the request id
	// and any deck bought (or maybe bought) are kept whatever the step.
	const remedy = step
		? [step, /Request id: \S+/.exec(description)?.[0], ...description.split(/(?<=\.) /).filter((part) => /bought/i.test(part))]
		: [description, json.code === 'forbidden' ? 'Only a person can fix this; calling again does not help.' : undefined];
	const message = [`${error.message.replace(/\.$/, '')}.`, ...remedy].filter(Boolean).join(' ');
	json.message = inArgumentTerms(node, message)
		.replace(/retrying the execution|when you retry this execution/g, (said) => (said.startsWith('when') ? 'when you call again with the same arguments' : 'calling again with the same arguments'));
	return { output: 0, json };
}

/**
 * A Deck Generator Wait item as a model should read it (the node checks once as a tool): when to
 * ask again, the link to hand a person and whether it needs signing in, or why the read failed.
 */
export function waitToolAnswer(node: INode, json: IDataObject, baseUrl: string): IDataObject {
	// An item without a task id is an error item ({error: {...}, message}): its facts are inside.
	const facts = json.error && typeof json.error === 'object' ? { ...(json.error as IDataObject), description: json.message } : json;
	if (facts.outcome === 'failed' && typeof facts.code === 'string' && facts.code !== 'deck_failed') {
		// The service refused the read (a 404 for an unknown taskId, a 401, ...), or no taskId was given.
		const step = nextStep(node, facts) ?? (typeof facts.description === 'string' ? facts.description : undefined);
		const what = typeof facts.error === 'string' ? facts.error : String(facts.message ?? '');
		const message = inArgumentTerms(node, [`${what.replace(/\.$/, '')}.`, step].filter(Boolean).join(' '));
		return facts === json ? { ...json, message } : { outcome: 'failed', code: facts.code, message };
	}
	const url = typeof json.deckUrl === 'string' ? json.deckUrl : undefined;
	const lastError = json.lastError && typeof json.lastError === 'object' ? String((json.lastError as IDataObject).error ?? '') : '';
	const advice = statusAdvice(json, baseUrl);
	return {
		...json,
		...linkFacts(url, baseUrl),
		message: lastError ? `${advice} The last read failed (${lastError}); ask again in a few minutes.` : advice,
	};
}

/**
 * The sentences of the README, the docs, every example's notes and the nodes' field hints that tell a
 * person to run something (issue 49.5): test/workflows/instructions/instructions.test.ts requires each to
 * be run by a scenario that asserts what it charges.
 *
 * The pattern (`isInstructionToRun`): a sentence is one when a clause of it starts with a verb of running:
 * run, re-run, execute, send, click, press, paste, submit, try, call, ask for (the clause starts the
 * sentence, a list item or a bold label, or follows `:`, `;`, `(`, "then", "and" or "or"; markdown
 * emphasis around the verb is ignored); and every command line of a code block or an inline code span
 * (`curl`, `npm run`, `npm test`, `npx`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { DeckGen } from '../../../nodes/DeckGen/DeckGen.node';
import { DeckGenWait } from '../../../nodes/DeckGenWait/DeckGenWait.node';

const ROOT = join(__dirname, '../../..');

export interface Sentence {
	/** README.md, docs/<file>.md, <example>.json (its sticky notes), or "hint: <node> <field>". */
	source: string;
	text: string;
}

const VERB = String.raw`(?:run|re-run|execute|send|click|press|paste|submit|try|call|ask for)`;
const CLAUSE_START = String.raw`(?:^|[:;(]\s*|\bthen\s+|\band\s+|\bor\s+)`;
const RUN_CLAUSE = new RegExp(String.raw`${CLAUSE_START}[*_\`]*${VERB}\b`, 'i');
const COMMAND = /(?:^|`)(?:curl|npm run|npm test|npx)\b/;

export function isInstructionToRun(sentence: string): boolean {
	const clause = sentence.replace(/^(?:\d+\.\s+|[-*]\s+)?(?:\*\*[^*]+\*\*:?\s*)?/, '');
	return RUN_CLAUSE.test(clause) || COMMAND.test(sentence);
}

/** Markdown as sentences: code blocks' command lines (continuations joined), table rows, list items, paragraphs. */
export function sentencesOf(markdown: string): string[] {
	const out: string[] = [];
	const prose = markdown.replace(/```[^\n]*\n([\s\S]*?)```/g, (_block, code: string) => {
		for (const command of code.replace(/\\\n\s*/g, ' ').split('\n')) if (COMMAND.test(command.trim())) out.push(command.trim());
		return '\n';
	});
	for (const block of prose.split(/\n\s*\n/)) {
		const items: string[] = [];
		for (const line of block.split('\n')) {
			if (/^\s*(?:\||#|\d+\.\s|[-*]\s)/.test(line) || !items.length) items.push(line.trim());
			else items[items.length - 1] += ` ${line.trim()}`;
		}
		for (const item of items) out.push(...item.split(/(?<=[.!?])\s+(?=[A-Z*`([])/).map((s) => s.trim()).filter(Boolean));
	}
	return out;
}

function hintsOf(properties: INodeProperties[], node: string): Sentence[] {
	return properties.flatMap((p) => [
		...(p.hint ? sentencesOf(p.hint).map((text) => ({ source: `hint: ${node} ${p.displayName}`, text })) : []),
		...hintsOf(((p.options ?? []) as INodeProperties[]).filter((o) => typeof o === 'object' && 'displayName' in o), node),
	]);
}

/** Every sentence in scope, instruction or not. */
export function allSentences(): Sentence[] {
	const sentences: Sentence[] = [];
	const add = (source: string, markdown: string) => sentences.push(...sentencesOf(markdown).map((text) => ({ source, text })));
	add('README.md', readFileSync(join(ROOT, 'README.md'), 'utf8'));
	for (const file of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort()) add(`docs/${file}`, readFileSync(join(ROOT, 'docs', file), 'utf8'));
	const examples = join(ROOT, 'test/workflows/examples');
	for (const file of readdirSync(examples).filter((f) => f.endsWith('.json')).sort()) {
		const wf = JSON.parse(readFileSync(join(examples, file), 'utf8')) as { nodes: Array<{ type: string; parameters: { content?: string } }> };
		for (const note of wf.nodes.filter((n) => n.type === 'n8n-nodes-base.stickyNote')) add(file, String(note.parameters.content ?? ''));
	}
	for (const node of [new DeckGen(), new DeckGenWait()]) sentences.push(...hintsOf(node.description.properties, node.description.displayName));
	return sentences;
}

export const instructionsToRun = (): Sentence[] => allSentences().filter((s) => isInstructionToRun(s.text));

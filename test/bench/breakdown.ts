/**
 * Where the bytes of one stored execution go: `execution_data.data` as n8n writes it (flatted), broken
 * down by what each part adds to it.
 *
 * flatted stores every object and every distinct string once, and numbers inline, so a part's size is
 * not the size of its JSON: the breakdown measures each part's marginal cost instead, as the
 * difference between the flatted length of the whole and that of the whole without the part (the
 * same part elsewhere, e.g. a Wait node passing its input on unchanged, is then counted once). For
 * each node run: the items' JSON, their binary metadata, and the run's own record (startTime,
 * executionTime, source, hints, ...); then the execution's `executionData` (node stack, waiting
 * data, metadata), `startData`, and what is left (resultData's other fields, the envelope).
 *
 *   npx ts-node --transpile-only test/bench/breakdown.ts FILE...   (FILE: one `execution_data.data`)
 *   npm run bench:queue -- --breakdown DIR   (writes one execution of each shape of each workflow there)
 */
import * as fs from 'fs';
import { parse, stringify } from 'flatted';

export interface RunPart {
	node: string;
	run: number;
	/** marginal bytes of the whole run record */
	total: number;
	itemsJson: number;
	binary: number;
	/** the run's own record: total - items JSON - binary */
	runMetadata: number;
	items: number;
}

export interface Breakdown {
	bytes: number;
	runs: RunPart[];
	/** marginal bytes of resultData.runData as a whole (all runs) */
	runData: number;
	executionData: number;
	startData: number;
	/** everything else: resultData's other fields, the envelope, flatted's own framing */
	rest: number;
	nodeRuns: number;
}

const size = (value: unknown) => Buffer.byteLength(stringify(value), 'utf8');

type Item = { json?: unknown; binary?: unknown };
type TaskData = { data?: Record<string, Array<Item[] | null>> } & Record<string, unknown>;
type RunExecutionData = {
	startData?: unknown;
	resultData?: { runData?: Record<string, TaskData[]> } & Record<string, unknown>;
	executionData?: unknown;
} & Record<string, unknown>;

/** a deep copy as n8n reads it back (shared references kept) */
const copy = (text: string) => parse(text) as RunExecutionData;

function items(task: TaskData): Item[] {
	const out: Item[] = [];
	for (const outputs of Object.values(task.data ?? {})) for (const output of outputs ?? []) for (const item of output ?? []) out.push(item);
	return out;
}

export function breakdown(text: string): Breakdown {
	const whole = size(parse(text));
	const without = (edit: (d: RunExecutionData) => void) => {
		const d = copy(text);
		edit(d);
		return whole - size(d);
	};
	const runData = copy(text).resultData?.runData ?? {};
	const runs: RunPart[] = [];
	for (const [node, tasks] of Object.entries(runData)) {
		tasks.forEach((task, run) => {
			const total = without((d) => {
				d.resultData!.runData![node][run] = {} as TaskData;
			});
			const itemsJson = without((d) => {
				for (const item of items(d.resultData!.runData![node][run])) item.json = {};
			});
			const binary = without((d) => {
				for (const item of items(d.resultData!.runData![node][run])) delete item.binary;
			});
			runs.push({ node, run, total, itemsJson, binary, runMetadata: total - itemsJson - binary, items: items(task).length });
		});
	}
	const allRuns = without((d) => {
		d.resultData!.runData = {};
	});
	const executionData = without((d) => {
		delete d.executionData;
	});
	const startData = without((d) => {
		delete d.startData;
	});
	return {
		bytes: Buffer.byteLength(text, 'utf8'),
		runs,
		runData: allRuns,
		executionData,
		startData,
		rest: whole - allRuns - executionData - startData,
		nodeRuns: runs.length,
	};
}

/** A table of one breakdown (markdown). */
export function formatBreakdown(title: string, b: Breakdown): string {
	const lines = [`### ${title}: ${b.bytes.toLocaleString('en-US')} bytes, ${b.nodeRuns} node runs`, '', '| part | bytes | items JSON | binary | run record |', '|---|---|---|---|---|'];
	for (const r of b.runs) lines.push(`| ${r.node} #${r.run} (${r.items} item${r.items === 1 ? '' : 's'}) | ${r.total} | ${r.itemsJson} | ${r.binary} | ${r.runMetadata} |`);
	const sumRuns = b.runs.reduce((s, r) => s + r.total, 0);
	lines.push(`| (shared between runs: the same objects in several runs) | ${b.runData - sumRuns} | | | |`);
	lines.push(`| **all node runs** | **${b.runData}** | ${b.runs.reduce((s, r) => s + r.itemsJson, 0)} | ${b.runs.reduce((s, r) => s + r.binary, 0)} | ${b.runs.reduce((s, r) => s + r.runMetadata, 0)} |`);
	lines.push(`| executionData (stack, waiting data, metadata) | ${b.executionData} | | | |`);
	lines.push(`| startData | ${b.startData} | | | |`);
	lines.push(`| the rest (resultData's other fields, envelope) | ${b.rest} | | | |`);
	return lines.join('\n');
}

if (require.main === module) {
	for (const file of process.argv.slice(2)) console.log(formatBreakdown(file, breakdown(fs.readFileSync(file, 'utf8'))) + '\n');
}

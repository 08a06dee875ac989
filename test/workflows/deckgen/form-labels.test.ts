/**
 * A refusal of the brief names the fields as the Create form does, whichever shape the service
 * refuses in (the reference's 422 `{detail: [{loc, msg}]}`, profile B's 400 problem+json).
 */
import { start, type Simulator } from '../../simulator';
import { brief, continueErrorOutput, jsonOf, loadWorkflow, runWith } from './fixture';

describe('Create: a 400/422 in the form’s labels', () => {
	let sim: Simulator;
	beforeAll(async () => {
		sim = await start({ seed: 23, clock: { manual: true } });
	});
	afterAll(async () => await sim.close());

	test('no title and no core message: the error names Title and Core Message, not the API fields', async () => {
		const result = await runWith(sim, continueErrorOutput(loadWorkflow('create')), sim.keys.personal, [
			brief({ title: '', core_message: '' }),
			brief({ slide_count: 500 }),
		]);
		const [noBrief, tooMany] = jsonOf(result.output('Errors'));
		const error = noBrief.error as { message: string; fields: Array<{ field: string; serviceField?: string }>; code: string };
		expect(error.code).toBe('validation_failed');
		// the reference requires one of the two; profile B requires the title
		expect(error.message).toMatch(/Title|Core Message/);
		expect(error.message).not.toMatch(/core_message|\btitle\b|\bbody\b/);
		expect(String(noBrief.message)).toMatch(/^Fix these fields: (Title, Core Message|Title) \(/);
		expect(error.fields.every((f) => /^(Title|Core Message)/.test(f.field) && f.serviceField !== undefined)).toBe(true);

		const slides = tooMany.error as { message: string; fields: Array<{ field: string; serviceField?: string }> };
		expect(slides.message).toMatch(/^Slide Count: /);
		expect(slides.fields).toEqual([expect.objectContaining({ field: 'Slide Count', serviceField: 'slide_count' })]);
		expect(String(tooMany.message)).toMatch(/Fix these fields: Slide Count/);
	});
});

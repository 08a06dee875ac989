/**
 * A 400/422 names the body fields as the API spells them; the error a person reads names them as
 * the form labels them (`withFormLabels`), and keeps the service's own name in `serviceField`.
 */
import { CREATE_FORM_LABELS } from '../../nodes/DeckGen/actions/deck/create.operation';
import { withFormLabels } from '../../nodes/shared/formLabels';
import { parseFailure } from '../../nodes/shared/problem';

const framework = (detail: unknown[]) =>
	parseFailure({ status: 422, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ detail }) });

describe('withFormLabels', () => {
	test('a field path ["body","slide_count"] becomes Slide Count, in the field list and the detail', () => {
		const failure = withFormLabels(
			framework([{ loc: ['body', 'slide_count'], msg: 'Input should be less than or equal to 100', type: 'less_than_equal' }]),
			CREATE_FORM_LABELS,
		);
		expect(failure.fields).toEqual([{ field: 'Slide Count', message: 'Input should be less than or equal to 100', serviceField: 'slide_count' }]);
		expect(failure.detail).toBe('Slide Count: Input should be less than or equal to 100');
	});

	test('a rule about the whole body names the fields its message mentions, in the form’s words', () => {
		const failure = withFormLabels(
			framework([{ loc: ['body'], msg: 'Value error, one of core_message or title is required', type: 'value_error' }]),
			CREATE_FORM_LABELS,
		);
		expect(failure.fields).toEqual([
			{ field: 'Title, Core Message', message: 'Value error, one of Core Message or Title is required', serviceField: 'body' },
		]);
		expect(failure.detail).toBe('Title, Core Message: Value error, one of Core Message or Title is required');
		expect(failure.detail).not.toMatch(/core_message|body/);
	});

	test('an entry of a list field, and a problem+json 400 with errors [{field, message}]', () => {
		const listed = withFormLabels(framework([{ loc: ['body', 'material_ids', 1], msg: 'String should have at least 1 character' }]), CREATE_FORM_LABELS);
		expect(listed.fields[0]).toMatchObject({ field: 'Material IDs (entry 2)', serviceField: 'material_ids.1' });

		const problem = parseFailure({
			status: 400,
			headers: { 'content-type': 'application/problem+json' },
			text: JSON.stringify({
				code: 'validation_failed',
				retryable: false,
				detail: 'audience: Field required; output_language: String should match pattern',
				errors: [
					{ field: 'audience', message: 'Field required' },
					{ field: 'output_language', message: 'String should match pattern' },
				],
			}),
		});
		const labelled = withFormLabels(problem, CREATE_FORM_LABELS);
		expect(labelled.fields.map((f) => f.field)).toEqual(['Audience', 'Output Language']);
		expect(labelled.detail).toBe('Audience: Field required; Output Language: String should match pattern');
	});

	test('a field the form does not know keeps its name; other failures are untouched', () => {
		const unknown = withFormLabels(framework([{ loc: ['body', 'colour'], msg: 'Extra inputs are not permitted' }]), CREATE_FORM_LABELS);
		expect(unknown.fields).toEqual([{ field: 'colour', message: 'Extra inputs are not permitted' }]);
		const notFound = parseFailure({ status: 404, headers: {}, text: JSON.stringify({ code: 'not_found', retryable: false, detail: 'no title here' }) });
		expect(withFormLabels(notFound, CREATE_FORM_LABELS)).toBe(notFound);
	});
});

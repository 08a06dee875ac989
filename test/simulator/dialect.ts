// The profile's failure dialect. Handlers and the pipeline build every refusal in the reference form; this one
// step rewrites it into the profile's legal choices (type URI, where a 402 names its cta, 401/413/edge-429
// bodies, 400 vs 422, org-spend refusal as 403, rate-limit header names). Success bodies differ per profile in
// the handlers themselves (handlers.ts), where the values live.
import type { ProfileChoices } from './profile';
import { PROBLEM_TYPE_BASE, problem, type ValidationIssue } from './problem';
import type { ProblemBody, Reply } from './reply';

export function speak(reply: Reply, profile: ProfileChoices): Reply {
	if (reply.spoken) return reply;
	let out: Reply = { ...reply, spoken: true };
	if (out.body.kind === 'problem') out = speakProblem(out, out.body.value, profile);
	else if (out.body.kind === 'json' && out.status === 422 && profile.bodyValidation === '400-problem') {
		const issues = (out.body.value as { detail: ValidationIssue[] }).detail;
		out = {
			...problem(400, 'validation_failed', {
				detail: issues.map((i) => `${i.loc.filter((p) => p !== 'body').join('.') || 'body'}: ${i.msg}`).join('; '),
				retryable: false,
				extra: { errors: issues.map((i) => ({ field: i.loc.filter((p) => p !== 'body').join('.') || 'body', message: i.msg })) },
			}),
			spoken: true,
		};
		out = speakProblem(out, (out.body as { value: ProblemBody }).value, profile);
	} else if (out.body.kind === 'raw' && out.status === 429 && profile.edge429 === 'json') {
		out = { ...out, body: { kind: 'json', value: { message: 'API rate limit exceeded' } } };
	} else if (out.body.kind === 'raw' && out.status === 413 && profile.body413 === 'json') {
		out = { ...out, body: { kind: 'json', value: { error: { code: 413, message: 'Request Entity Too Large' } } } };
	}
	return out;
}

function speakProblem(reply: Reply, body: ProblemBody, profile: ProfileChoices): Reply {
	let value: ProblemBody = { ...body };
	let status = reply.status;
	const headers = { ...reply.headers };
	if (value.type.startsWith(PROBLEM_TYPE_BASE)) value.type = profile.problemTypeBase + value.type.slice(PROBLEM_TYPE_BASE.length);

	if (status === 401 && profile.unauthorizedBody === 'plain-json') {
		// An auth layer in front of the API answers in OAuth's words, not problem+json.
		return { status, headers, body: { kind: 'json', value: { error: 'invalid_token', error_description: value.detail } }, spoken: true };
	}
	if (status === 402 && value.reason === 'org_spend_disabled' && profile.orgSpendDisabledStatus === 403) {
		const { cta: _cta, options: _options, ...rest } = value;
		value = { ...rest, code: 'forbidden', title: 'Forbidden', status: 403, type: profile.problemTypeBase + 'forbidden' };
		status = 403;
	}
	if (status === 402) {
		if (profile.paymentCta !== 'top-level') delete value.cta;
		if (profile.optionLinks !== 'url' && Array.isArray(value.options)) {
			if (profile.paymentCta === 'options-strings') value._links = halLinksOf(value.options);
			else value.options = value.options.map((option) => movedLink(option as Record<string, unknown>, profile.optionLinks));
		}
		if (profile.paymentCta === 'options-strings' && Array.isArray(value.options)) {
			// Each option is its cta and nothing else; options without one (the paywall's) have no such form.
			value.options = value.options.flatMap((option) => {
				const cta = (option as Record<string, unknown>).cta;
				return typeof cta === 'string' ? [cta] : [];
			});
		}
		if (profile.paymentCta === 'none' && Array.isArray(value.options)) {
			value.options = value.options.map((option) => {
				const { cta: _cta, ...restOfOption } = option as Record<string, unknown>;
				return restOfOption;
			});
		}
	}
	if (status === 400 && value.code === 'validation_failed' && profile.missingKeyStatus === 422 && /^idempotency_key/.test(value.reason ?? '')) {
		status = 422;
		value.status = 422;
	}
	return { status, headers, body: { kind: 'problem', value }, spoken: true };
}

/** A 402 option with its `url` under the profile's member (`optionLinks`). */
function movedLink(option: Record<string, unknown>, where: ProfileChoices['optionLinks']): Record<string, unknown> {
	const { url, ...rest } = option;
	if (typeof url !== 'string') return option;
	switch (where) {
		case 'url':
			return option;
		case 'href':
			return { ...rest, href: url };
		case 'nested':
			return { ...rest, link: { url } };
		case 'hal':
			return { ...rest, _links: { checkout: { href: url } } };
	}
}

/** HAL `_links` of the body, one per option cta (the first option's under its cta and as `next`). */
function halLinksOf(options: unknown[]): Record<string, { href: string }> {
	const links: Record<string, { href: string }> = {};
	for (const option of options as Array<Record<string, unknown>>) {
		if (typeof option.url !== 'string') continue;
		links.next ??= { href: option.url };
		const rel = typeof option.cta === 'string' ? option.cta : 'checkout';
		links[rel] ??= { href: option.url };
	}
	return links;
}

/** X-RateLimit-* of the reference, under the profile's names (applied to every answer's headers). */
export function renameRateLimitHeaders(headers: Record<string, string>, profile: ProfileChoices): Record<string, string> {
	if (profile.rateLimitHeaders === 'x-ratelimit-') return headers;
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		out[name.startsWith('x-ratelimit-') ? profile.rateLimitHeaders + name.slice('x-ratelimit-'.length) : name] = value;
	}
	return out;
}

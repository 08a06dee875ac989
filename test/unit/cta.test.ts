/**
 * The contract's complete set of 402 ctas, each routed to the kind design.md's outputs table gives it.
 */
import { CTA_TABLE, isKnownCta, KNOWN_CTAS, routeCta, SPLIT_CTAS, UNKNOWN_CTA_ACTION } from '../../nodes/shared/cta';

/** design.md, "Outcomes, not exceptions": Checkout vs Client Action. */
const DESIGN_TABLE: Array<[string, 'checkout' | 'clientAction']> = [
	['unlock_or_subscribe', 'checkout'],
	['top_up', 'checkout'],
	['manage_decks', 'clientAction'],
	['upgrade_for_slides', 'clientAction'],
	['confirm_slide_surcharge', 'clientAction'],
	['subscribe_for_translation', 'checkout'],
	['translation_top_up', 'checkout'],
	['buy_revision', 'checkout'],
	['insufficient_credits', 'checkout'],
];

describe('the cta table', () => {
	it('holds exactly the nine ctas of the contract', () => {
		expect([...KNOWN_CTAS].sort()).toEqual(DESIGN_TABLE.map(([cta]) => cta).sort());
		expect(Object.keys(CTA_TABLE).sort()).toEqual([...KNOWN_CTAS].sort());
	});

	it.each(DESIGN_TABLE)('%s is a %s', (cta, kind) => {
		expect(CTA_TABLE[cta as keyof typeof CTA_TABLE].kind).toBe(kind);
		expect(routeCta(cta).kind).toBe(kind);
	});

	it.each(KNOWN_CTAS.map((cta) => [cta]))('%s has a one-line action for a person', (cta) => {
		const { action } = CTA_TABLE[cta];
		expect(action.length).toBeGreaterThan(10);
		expect(action).not.toMatch(/[\r\n]/);
	});

	it('routes every known cta as itself, known and not inferred', () => {
		for (const cta of KNOWN_CTAS.filter((c) => c !== 'insufficient_credits')) {
			expect(routeCta(cta)).toEqual({ cta, kind: CTA_TABLE[cta].kind, known: true, inferred: false, action: CTA_TABLE[cta].action });
		}
	});

	it('never tells a person to set confirm_slide_surcharge without showing the price', () => {
		expect(CTA_TABLE.confirm_slide_surcharge.action).toMatch(/show the higher price/i);
	});
});

describe('routeCta: the rules for a missing or unknown cta', () => {
	it.each([[undefined], ['']])('a 402 without a cta (%p) is top_up, inferred', (cta) => {
		expect(routeCta(cta)).toEqual({ cta: 'top_up', kind: 'checkout', known: true, inferred: true, action: CTA_TABLE.top_up.action });
	});

	it('the video paywall, named by code insufficient_credits, is treated as top_up', () => {
		expect(routeCta('insufficient_credits')).toMatchObject({ cta: 'top_up', kind: 'checkout', known: true });
	});

	it('an unknown cta is a checkout with the generic account action, keeping its own name', () => {
		expect(routeCta('gift_card')).toEqual({ cta: 'gift_card', kind: 'checkout', known: false, inferred: false, action: UNKNOWN_CTA_ACTION });
		expect(UNKNOWN_CTA_ACTION).toMatch(/account/);
	});

	it('matches ctas exactly (no case folding, no prototype members)', () => {
		expect(routeCta('TOP_UP').known).toBe(false);
		expect(isKnownCta('toString')).toBe(false);
		expect(isKnownCta('constructor')).toBe(false);
		expect(isKnownCta('buy_revision')).toBe(true);
	});
});

describe('SPLIT_CTAS', () => {
	it('has one output per cta, with insufficient_credits folded into top_up, in the contract order', () => {
		expect(SPLIT_CTAS).toEqual([
			'unlock_or_subscribe',
			'top_up',
			'manage_decks',
			'upgrade_for_slides',
			'confirm_slide_surcharge',
			'subscribe_for_translation',
			'translation_top_up',
			'buy_revision',
		]);
	});
});

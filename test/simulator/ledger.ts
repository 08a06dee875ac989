// What happened, for assertions like "charged exactly once": every request and every charge.
import type { Charge, Ledger, RequestRecord } from './types';

export class SimLedger implements Ledger {
	private chargeList: Charge[] = [];
	private requestList: RequestRecord[] = [];

	get charges(): Charge[] {
		return this.chargeList;
	}

	get requests(): RequestRecord[] {
		return this.requestList;
	}

	chargesFor(idempotencyKey: string): Charge[] {
		return this.chargeList.filter((c) => c.idempotencyKey === idempotencyKey);
	}

	totalCharged(principalId?: string): number {
		return this.chargeList
			.filter((c) => principalId === undefined || c.principalId === principalId)
			.reduce((sum, c) => sum + c.credits, 0);
	}

	addCharge(charge: Charge): void {
		this.chargeList.push(charge);
	}

	addRequest(record: RequestRecord): void {
		this.requestList.push(record);
	}

	reset(): void {
		this.chargeList = [];
		this.requestList = [];
	}
}

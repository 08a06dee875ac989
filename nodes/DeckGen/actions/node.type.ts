import type { INodeProperties } from 'n8n-workflow';

import type { EmittedItem } from '../../shared/n8n/item';
import type { ItemContext } from './send';

/** Every resource and its operations; the router is a typed lookup over this map. */
export type DeckGenMap = {
	account: 'getCredits';
	deck: 'create' | 'download' | 'getStatus' | 'recover' | 'revise' | 'translate' | 'generateVideo';
	material: 'upload';
	custom: 'request';
};

export type DeckGenResource = keyof DeckGenMap;

export interface Operation {
	/** The operation's own fields, shown only for it. */
	description: INodeProperties[];
	execute(item: ItemContext): Promise<EmittedItem>;
	/** Whether items can buy something (their task ids are named if the node fails). */
	spends: boolean;
}

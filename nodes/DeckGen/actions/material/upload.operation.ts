import { NodeOperationError, updateDisplayOptions, type INodeProperties } from 'n8n-workflow';

import { materialIdOf, withoutMaterialEnvelope } from '../../../shared/materialRecord';
import { precheckMaterial } from '../../../shared/materials';
import { multipartBody } from '../../../shared/multipart';
import { callOptions, idempotencyKeyOption, optionsCollection, readOptions } from '../common';
import type { Operation } from '../node.type';
import { endpointPathFor, sendMutation, type ItemContext } from '../send';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field containing the file to upload',
	},
	optionsCollection([
		...callOptions,
		{
			displayName: 'Content Type',
			name: 'contentType',
			type: 'string',
			default: '',
			placeholder: 'application/pdf',
			description: "Declared type of the file. Defaults to the binary's MIME type.",
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'brief.pdf',
			description: "Name sent with the file. Defaults to the binary's file name. Its extension must match the content.",
		},
		{
			...idempotencyKeyOption,
			description:
				'Leave empty: the node keeps one key per item across retries of the execution. Set it (e.g. to a webhook delivery ID) so that a redelivered upload returns the material already stored instead of storing it again.',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['material'], operation: ['upload'] } },
	properties,
);

/**
 * `POST /v1/materials` (or the credential's Upload Path), multipart with one `file` part (our
 * reading of an endpoint the contract leaves unspecified). The service's 415 rules are checked here first, so a file that would be
 * refused is never sent, and the message names what disagrees.
 */
export async function execute(item: ItemContext) {
	const { ctx, itemIndex } = item;
	const propertyName = ctx.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as { fileName?: string; contentType?: string };
	const binary = ctx.helpers.assertBinaryData(itemIndex, propertyName);
	const bytes = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	const filename = options.fileName?.trim() || binary.fileName || '';
	const declaredType = options.contentType?.trim() || binary.mimeType;

	if (!filename) {
		throw new NodeOperationError(ctx.getNode(), `The binary field "${propertyName}" has no file name`, {
			itemIndex,
			description: 'Set Options → File Name (its extension decides which content is accepted).',
		});
	}
	const verdict = precheckMaterial(filename, declaredType, bytes);
	if (!verdict.ok) {
		throw new NodeOperationError(ctx.getNode(), verdict.message, {
			itemIndex,
			description: `Checked before upload (the service's file rule "${verdict.rule}"); nothing was sent.`,
		});
	}

	return await sendMutation(item, {
		operation: 'material.upload',
		path: endpointPathFor(item, 'materials'),
		endpoint: 'materials',
		raw: multipartBody({ field: 'file', filename, contentType: verdict.contentType, bytes }),
		options: readOptions(ctx, itemIndex),
		// Wherever the service names it (shared/materialRecord.ts); without one the upload is an error
		// keeping the whole answer, as Create without taskId.
		decorate: (answer) => {
			const body = withoutMaterialEnvelope(answer);
			const materialId = materialIdOf(body);
			return materialId !== undefined ? { materialId, ...body } : body;
		},
		requiredMember: 'materialId',
	});
}

export const upload: Operation = { description, execute, spends: false };

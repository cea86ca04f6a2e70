import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/adapter.ts';
import {
  createSvgSanitiser,
  svgFileProblem,
  SVG_CONTENT_TYPE,
  SVG_MAX_BYTES,
  SVG_MESSAGES,
} from '../../src/schema/svg-upload.ts';
import { PHOTO_MAX_BYTES } from '../../src/schema/photo-upload.ts';
import { badRequest, HttpError } from './http-error.ts';
import type { Doc } from './record-store.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import type { OpnameContext } from './resource-rules.ts';
import { recordKeyOf, visibleRecord } from './write-pipeline.ts';

export const UPLOADS_PATH = '/uploads/';

/** A stored file may draw and style itself, and load nothing: not even when opened on its own. */
const UPLOAD_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'";
/** The lifetime of the production's signed image URLs (spec 02). */
const UPLOAD_MAX_AGE_SECONDS = 86400;

/** The answer to a file over its limit, whether judged by the upload's checks or by the body's size. */
export const FILE_TOO_LARGE = { message: 'File is too large', details: { message_key: SVG_MESSAGES.tooLarge } };

const MESSAGES: Record<string, string> = {
  [SVG_MESSAGES.notSvg]: 'Only SVG files (.svg) are allowed',
  [SVG_MESSAGES.tooLarge]: FILE_TOO_LARGE.message,
  [SVG_MESSAGES.invalid]: 'The file is not a valid SVG image',
};

const refused = (messageKey: string) =>
  new HttpError(messageKey === SVG_MESSAGES.tooLarge ? 413 : 422, MESSAGES[messageKey], { message_key: messageKey });

let sanitiser: Promise<(text: string) => string | undefined> | undefined;

/** jsdom takes a while to load: the first upload pays for it, not every start of the gateway. */
function svgSanitiser() {
  sanitiser ??= import('jsdom').then(({ JSDOM }) => createSvgSanitiser(new JSDOM('').window));
  return sanitiser;
}

export function textField(body: Doc, name: string) {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw badRequest('gateway.param_required', { name });
  return value;
}

export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The size of base64 data once decoded: a file is judged on it before a byte is decoded. */
export const decodedSize = (data: string) =>
  (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

/** The sanitised file of an upload body, or the catalogue message saying why there is none. */
async function sanitisedSvg(body: Doc) {
  const fileName = textField(body, 'file_name');
  const contentType = textField(body, 'content_type');
  const data = textField(body, 'data');
  if (fileName.length > 255) throw badRequest('gateway.max_length', { name: 'file_name', max: 255 });
  const size = decodedSize(data);
  const problem = svgFileProblem({ name: fileName, type: contentType, size });
  if (problem) throw refused(problem);
  if (!BASE64.test(data)) throw badRequest('gateway.base64_expected');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(data, 'base64'));
  } catch {
    throw refused(SVG_MESSAGES.invalid);
  }
  const clean = (await svgSanitiser())(text);
  if (clean === undefined) throw refused(SVG_MESSAGES.invalid);
  return { fileName, content: Buffer.from(clean, 'utf8') };
}

const forgetUploads = (tx: Db, resource: ResourceDefinition, key: string, field: string) =>
  tx.query('DELETE FROM uploads WHERE resource = $1 AND key = $2 AND field = $3', [resource.endpoint, key, field]);

/** A file held by a record's field, checked already; its name in the store is random and unguessable. */
export interface StoredFile {
  resource: ResourceDefinition;
  key: string;
  field: string;
  fileName: string;
  contentType: string;
  extension: string;
  content: Buffer;
  createdBy: string;
}

/** Stores one file in the record's transaction; gives its id (the last part of its URL) and URL. */
export async function storeUpload(tx: Db, file: StoredFile) {
  const name = `${randomBytes(32).toString('base64url')}.${file.extension}`;
  await tx.query(
    `INSERT INTO uploads (id, resource, key, field, file_name, content_type, content, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [name, file.resource.endpoint, file.key, file.field, file.fileName, file.contentType, file.content, file.createdBy],
  );
  return { name, url: `${UPLOADS_PATH}${name}` };
}

/** Removes one stored file of the record, by the URL the record holds. */
export async function forgetUpload(tx: Db, resource: ResourceDefinition, key: string, url: string) {
  if (!url.startsWith(UPLOADS_PATH)) return;
  await tx.query('DELETE FROM uploads WHERE resource = $1 AND key = $2 AND id = $3', [
    resource.endpoint,
    key,
    url.slice(UPLOADS_PATH.length),
  ]);
}

/** A deleted record takes its files with it. */
export async function removeRecordUploads(tx: Db, resource: ResourceDefinition, key: string) {
  await tx.query('DELETE FROM uploads WHERE resource = $1 AND key = $2', [resource.endpoint, key]);
}

/**
 * Upload and removal of an SVG image held by a readOnly URL field of a record, e.g. a carrier's
 * `logo_url`. The upload is `PUT webtool/<endpoint>` with the body
 * `{ <id field>: <record id>, file_name: "logo.svg", content_type: "image/svg+xml", data: "<the file in base64>" }`;
 * the removal `DELETE webtool/<endpoint>` with `{ opname, <id field> }`. Both answer `{ success, data: record }`
 * and change the record through the write pipeline, so the record is checked as any edit, the
 * version moves on and the audit trail has the change.
 */
export function svgFieldUpload(field: string) {
  return {
    async put(ctx: OpnameContext, body: Doc) {
      const key = recordKeyOf(ctx.resource, body);
      // A record the caller cannot see is answered before its file is looked at.
      await visibleRecord(ctx.db, ctx.access, ctx.resource, key);
      const file = await sanitisedSvg(body);
      const data = await ctx.writes.change(key, async (tx, existing) => {
        await forgetUploads(tx, ctx.resource, key, field);
        const { url } = await storeUpload(tx, {
          resource: ctx.resource,
          key,
          field,
          fileName: file.fileName,
          contentType: SVG_CONTENT_TYPE,
          extension: 'svg',
          content: file.content,
          createdBy: ctx.access.caller.username,
        });
        return { ...existing.doc, [field]: url };
      });
      return { success: true, data };
    },

    async remove(ctx: OpnameContext, body: Doc) {
      const data = await ctx.writes.change(recordKeyOf(ctx.resource, body), async (tx, existing) => {
        await forgetUploads(tx, ctx.resource, existing.key, field);
        if (existing.doc[field] === undefined) return undefined;
        const { [field]: _removed, ...doc } = existing.doc;
        return doc;
      });
      return { success: true, data };
    },
  };
}

/**
 * `GET /uploads/<id>`: the stand-in of the production's signed storage URL. No credentials, as an
 * `<img>` sends none; the 256-bit random id is what only those who may see the record learn.
 */
export function registerUploadRoutes(app: FastifyInstance, db: Db) {
  app.get<{ Params: { name: string } }>(`${UPLOADS_PATH}:name`, async (request, reply) => {
    const found = await db.query<{ content_type: string; content: Uint8Array }>(
      'SELECT content_type, content FROM uploads WHERE id = $1',
      [request.params.name],
    );
    const file = found.rows[0];
    if (!file) return reply.status(404).send({ success: false, message: 'Not found' });
    return reply
      .header('content-type', file.content_type)
      .header('content-security-policy', UPLOAD_CONTENT_SECURITY_POLICY)
      .header('cache-control', `private, max-age=${UPLOAD_MAX_AGE_SECONDS}, immutable`)
      .send(Buffer.from(file.content));
  });
}

/** Uploads travel as base64 in JSON: 4/3 of the largest file (a photo), plus the rest of the body. */
export const UPLOAD_BODY_LIMIT = Math.ceil((Math.max(SVG_MAX_BYTES, PHOTO_MAX_BYTES) * 4) / 3) + 64 * 1024;

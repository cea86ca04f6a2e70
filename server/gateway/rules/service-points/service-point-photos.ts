import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import {
  PHOTO_EXTENSIONS,
  PHOTO_MESSAGES,
  photoContentType,
  photoCountProblem,
  PHOTO_MAX_BYTES,
  isPhotoContentType,
  safePhotoFileName,
} from '../../../../src/schema/photo-upload.ts';
import { badRequest, HttpError, notFound } from '../../http-error.ts';
import type { Doc } from '../../record-store.ts';
import type { OpnameContext } from '../../resource-rules.ts';
import { BASE64, decodedSize, FILE_TOO_LARGE, forgetUpload, storeUpload, textField } from '../../uploads.ts';
import { recordKeyOf, visibleRecord } from '../../write-pipeline.ts';
import { optionalVersion } from '../shared/values.ts';
import { bodyParams, SOME_TEXT } from '../shared/params.ts';

type Photo = NonNullable<ServicePoint['photos']>[number];

const PHOTOS_FIELD = 'photos';

const TOO_MANY = 'The amount of uploaded pictures has been exceeded';
const INVALID_FORMAT = 'Invalid photo format';

const refused = (messageKey: string) => {
  if (messageKey === PHOTO_MESSAGES.tooLarge) return new HttpError(413, FILE_TOO_LARGE.message, FILE_TOO_LARGE.details);
  return new HttpError(422, messageKey === PHOTO_MESSAGES.tooMany ? TOO_MANY : INVALID_FORMAT, {
    message_key: messageKey,
  });
};

/** The photo an upload replaces, if any. */
const replacedPhotoParams = bodyParams({
  photo_id: { schema: SOME_TEXT, refusal: 'gateway.photo_of_service_point', optional: true },
});
/** The photo a removal names. */
const removedPhotoParams = bodyParams({
  photo_id: {
    schema: SOME_TEXT,
    refusal: 'gateway.photo_of_service_point',
    missing: ['gateway.param_required', { name: 'photo_id' }],
  },
});
/** The upload's bytes, checked after the cheaper size and type refusals. */
const photoDataParams = bodyParams({
  data: { schema: { type: 'string', pattern: BASE64.source }, refusal: 'gateway.base64_expected' },
});

/** How a resource's photos are limited and refused: a service point's by the defaults of spec 02 §9. */
interface PhotoLimits {
  maxBytes: number;
  refusal: (messageKey: string) => HttpError;
}

const servicePointLimits: PhotoLimits = { maxBytes: PHOTO_MAX_BYTES, refusal: refused };

/** The photo of an upload body, checked cheapest first: size on the encoded length, then the bytes. */
async function checkedPhoto(body: Doc, limits: PhotoLimits) {
  const refused = limits.refusal;
  const fileName = textField(body, 'file_name');
  const declaredType = textField(body, 'content_type');
  const data = textField(body, 'data');
  // Not a shape: the name must be the one the upload would keep once made safe.
  if (safePhotoFileName(fileName) !== fileName) {
    throw badRequest('gateway.plain_file_name');
  }
  if (decodedSize(data) > limits.maxBytes) throw refused(PHOTO_MESSAGES.tooLarge);
  if (!isPhotoContentType(declaredType)) throw refused(PHOTO_MESSAGES.invalidFormat);
  photoDataParams(body);
  const content = Buffer.from(data, 'base64');
  // The bytes decide, whatever the name or the declared type say: a renamed text file is no photo.
  const contentType = await photoContentType(content);
  if (!contentType) throw refused(PHOTO_MESSAGES.invalidFormat);
  return { fileName, contentType, content };
}

const photosOf = (doc: Doc) => (Array.isArray(doc[PHOTOS_FIELD]) ? (doc[PHOTOS_FIELD] as Photo[]) : []);

/**
 * `PUT webtool/service_points` with `{ service_point_id, file_name, content_type, data (base64), version?,
 * photo_id? }` adds a photo (at most 5, each at most 5 MB, a JPEG, PNG, WebP or GIF by its content); with
 * `photo_id` the new file replaces that photo in its place (an edited photo), so a full gallery can still
 * be edited. Through the write pipeline: the caller's edit right and tenancy, the service point's rules,
 * the version and the audit trail apply as to any edit. Answers `{ success, data: service point }`.
 */
async function putPhoto(ctx: OpnameContext, body: Doc, limits: PhotoLimits = servicePointLimits) {
  const refused = limits.refusal;
  const key = recordKeyOf(ctx.resource, body);
  const version = optionalVersion(body);
  const replacing = replacedPhotoParams(body).photo_id;
  // A service point the caller cannot see is answered before its photos are looked at.
  const visible = await visibleRecord(ctx.db, ctx.access, ctx.resource, key);
  const earlyCount = photoCountProblem(photosOf(visible.doc).length, replacing !== undefined);
  if (earlyCount) throw refused(earlyCount);
  const photo = await checkedPhoto(body, limits);
  const data = await ctx.writes.change(
    key,
    async (tx, existing) => {
      const photos = photosOf(existing.doc);
      const replaced = replacing === undefined ? undefined : photos.find((item) => item.photo_id === replacing);
      if (replacing !== undefined && !replaced) throw notFound('gateway.photo_not_found');
      // Judged again in the transaction: two uploads at once must not make a sixth photo.
      const countProblem = photoCountProblem(photos.length, replaced !== undefined);
      if (countProblem) throw refused(countProblem);
      const stored = await storeUpload(tx, {
        resource: ctx.resource,
        key,
        field: PHOTOS_FIELD,
        fileName: photo.fileName,
        contentType: photo.contentType,
        extension: PHOTO_EXTENSIONS[photo.contentType],
        content: photo.content,
        createdBy: ctx.access.caller.username,
      });
      const added: Photo = {
        photo_id: stored.name.replace(/\.\w+$/, ''),
        url: stored.url,
        file_name: photo.fileName,
        content_type: photo.contentType,
        size: photo.content.length,
      };
      if (replaced) await forgetUpload(tx, ctx.resource, key, replaced.url);
      const next = replaced ? photos.map((item) => (item === replaced ? added : item)) : [...photos, added];
      return { ...existing.doc, [PHOTOS_FIELD]: next };
    },
    version,
  );
  return { success: true, data };
}

/**
 * `DELETE webtool/service_points` with `{ opname: "photo", service_point_id, photo_id, version? }`: removes
 * the photo and its file, audited as an edit. A photo that is not (or no longer) there is a 404.
 */
async function removePhoto(ctx: OpnameContext, body: Doc) {
  const key = recordKeyOf(ctx.resource, body);
  const version = optionalVersion(body);
  const photoId = removedPhotoParams(body).photo_id;
  const data = await ctx.writes.change(
    key,
    async (tx, existing) => {
      const photos = photosOf(existing.doc);
      const removed = photos.find((item) => item.photo_id === photoId);
      if (!removed) throw notFound('gateway.photo_not_found');
      await forgetUpload(tx, ctx.resource, key, removed.url);
      return { ...existing.doc, [PHOTOS_FIELD]: photos.filter((item) => item !== removed) };
    },
    version,
  );
  return { success: true, data };
}

/**
 * Hooked into the service point's rules (`put`, `removals`), so that every route to service points, the
 * scouts' included, applies them.
 */
export const putServicePointPhoto = (ctx: OpnameContext, body: Doc) => putPhoto(ctx, body);

/**
 * The same upload and removal for another resource's `photos` (a location proposal's: 1 MB each and its
 * own refusals), through that resource's write pipeline.
 */
export function photoHandlers(limits: PhotoLimits) {
  return { put: (ctx: OpnameContext, body: Doc) => putPhoto(ctx, body, limits), removals: { photo: removePhoto } };
}
export const servicePointPhotoRemovals = { photo: removePhoto };

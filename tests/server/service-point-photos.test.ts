import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { auditTrail, fetchUpload, storedState } from './support/uploaded-files.ts';
import { png as solidPng, uploadBody } from '../fixtures/upload-files.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let locationOwner: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, locationowner: locationOwner } = await signInAll(stack, ['operator', 'locationowner']));
});
afterAll(() => stack?.close());

const ENDPOINT = 'webtool/service_points';

/** A 4 x 3 JPEG as Chromium's canvas encodes it (quality 0.75). */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAARCAADAAQDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAaEAEAAQUAAAAAAAAAAAAAAAAAAQQFNYKy/8QAFQEBAQAAAAAAAAAAAAAAAAAABAb/xAAbEQAABwEAAAAAAAAAAAAAAAAAAQIDBTRysf/aAAwDAQACEQMRAD8Auv8Am6jXmAAI6m1lPCElIXHdK6Y//9k=',
  'base64',
);

/** A real RGB PNG of one colour. */
const png = (width: number, height: number, rgb: [number, number, number]) => solidPng(width, height, () => rgb);

const photoFile = (content: Buffer, name = 'front.jpg', type = 'image/jpeg') => uploadBody(content, name, type);

type Photo = { photo_id: string; url: string; file_name: string; content_type: string; size: number };
type ServicePoint = { service_point_id: number; version: number; photos?: Photo[]; location_owner_id?: number };

/** Service points the tests change, each its own, chosen among the seeded ones. */
async function servicePointIds(where: string, howMany: number) {
  const found = await stack.db.query<{ key: string }>(
    `SELECT key FROM records WHERE resource = 'service_points' AND ${where}
       AND NOT coalesce((doc->>'parked')::boolean, false) AND NOT coalesce((doc->>'is_terminated')::boolean, false)
     ORDER BY (key)::int LIMIT $1`,
    [howMany],
  );
  return found.rows.map((row) => Number(row.key));
}

let ids: number[];
beforeAll(async () => {
  ids = await servicePointIds(`doc->>'location_owner_id' <> '1'`, 8);
});

async function servicePoint(session: SigningSession, id: number) {
  const found = await stack.send(session, { method: 'GET', path: ENDPOINT, query: { service_point_id: id } });
  return (found.body.data as ServicePoint[])[0];
}

const upload = (session: SigningSession, id: number, file: ReturnType<typeof photoFile>, extra = {}) =>
  stack.send(session, { method: 'PUT', path: ENDPOINT, body: { service_point_id: id, ...file, ...extra } });

const removePhoto = (session: SigningSession, id: number, photoId: unknown) =>
  stack.send(session, {
    method: 'DELETE',
    path: ENDPOINT,
    body: { opname: 'photo', service_point_id: id, photo_id: photoId },
  });

const fetchFile = (url: string) => fetchUpload(stack, url);
const state = () => storedState(stack, 'service_points');
const auditOf = (id: number) => auditTrail(stack, 'service_points', id);

describe('adding a service point photo (PUT webtool/service_points)', () => {
  it('stores a JPEG and a PNG, serves them by their real type and records the change', async () => {
    const id = ids[0];
    const before = await servicePoint(operator, id);
    const jpeg = await upload(operator, id, photoFile(JPEG));
    expect(jpeg.status).toBe(200);
    // A PNG whose name says otherwise is still a PNG: the bytes decide.
    const pngBytes = png(3, 2, [200, 30, 30]);
    const pngAnswer = await upload(operator, id, photoFile(pngBytes, 'shop sign.jpeg', 'image/jpeg'), {
      version: before.version + 1,
    });
    expect(pngAnswer.status).toBe(200);
    const data = pngAnswer.body.data as ServicePoint;
    expect(data.version).toBe(before.version + 2);
    expect(data.photos).toEqual([
      {
        photo_id: expect.stringMatching(/^[\w-]{43}$/),
        url: expect.stringMatching(/^\/uploads\/[\w-]{43}\.jpg$/),
        file_name: 'front.jpg',
        content_type: 'image/jpeg',
        size: JPEG.length,
      },
      {
        photo_id: expect.stringMatching(/^[\w-]{43}$/),
        url: expect.stringMatching(/^\/uploads\/[\w-]{43}\.png$/),
        file_name: 'shop sign.jpeg',
        content_type: 'image/png',
        size: pngBytes.length,
      },
    ]);
    expect((await servicePoint(operator, id)).photos).toEqual(data.photos);

    const [servedJpeg, servedPng] = await Promise.all(data.photos!.map((photo) => fetchFile(photo.url)));
    expect(servedJpeg.status).toBe(200);
    expect(servedJpeg.headers['content-type']).toBe('image/jpeg');
    expect(servedJpeg.headers['x-content-type-options']).toBe('nosniff');
    expect(servedJpeg.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(servedJpeg.headers['cache-control']).toBe('private, max-age=86400, immutable');
    expect(Buffer.compare(servedJpeg.bytes, JPEG)).toBe(0);
    expect(servedPng.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(servedPng.bytes, pngBytes)).toBe(0);

    expect((await auditOf(id)).at(-1)).toMatchObject({
      action: 'update',
      username: 'operator',
      changes: { photos: { from: [data.photos![0]], to: data.photos } },
    });
  });

  it('refuses a sixth photo with the catalogue message, storing nothing', async () => {
    const id = ids[1];
    for (let index = 0; index < 5; index += 1) {
      expect((await upload(operator, id, photoFile(JPEG, `photo-${index}.jpg`))).status).toBe(200);
    }
    const baseline = await state();
    const sixth = await upload(operator, id, photoFile(JPEG, 'sixth.jpg'));
    expect(sixth.status).toBe(422);
    expect(sixth.body).toMatchObject({
      success: false,
      message: 'The amount of uploaded pictures has been exceeded',
      message_key: 'service_point_photos.too_many',
    });
    expect(await state()).toEqual(baseline);
    expect((await servicePoint(operator, id)).photos).toHaveLength(5);
  });

  it('replaces an edited photo in its place, even in a full gallery, and forgets the old file', async () => {
    const id = ids[1];
    const { photos, version } = await servicePoint(operator, id);
    const edited = png(4, 4, [10, 120, 240]);
    const replaced = await upload(operator, id, photoFile(edited, 'photo-2-edited.png', 'image/png'), {
      photo_id: photos![2].photo_id,
      version,
    });
    expect(replaced.status).toBe(200);
    const after = (replaced.body.data as ServicePoint).photos!;
    expect(after).toHaveLength(5);
    expect(after[2]).toMatchObject({ file_name: 'photo-2-edited.png', content_type: 'image/png' });
    expect(after.filter((_, index) => index !== 2)).toEqual(photos!.filter((_, index) => index !== 2));
    expect((await fetchFile(photos![2].url)).status).toBe(404);
    expect(Buffer.compare((await fetchFile(after[2].url)).bytes, edited)).toBe(0);

    const baseline = await state();
    const unknown = await upload(operator, id, photoFile(edited, 'x.png', 'image/png'), { photo_id: 'no-such-photo' });
    expect(unknown.status).toBe(404);
    expect(await state()).toEqual(baseline);
  });

  it.each([
    [
      'a 6 MB photo',
      () => photoFile(Buffer.concat([JPEG, Buffer.alloc(6 * 1024 * 1024)])),
      413,
      'catalogue.file_too_large',
    ],
    [
      'a photo one byte over 5 MB',
      () => photoFile(Buffer.concat([JPEG, Buffer.alloc(5 * 1024 * 1024 + 1 - JPEG.length)])),
      413,
      'catalogue.file_too_large',
    ],
    [
      'a text file renamed .jpg',
      () => photoFile(Buffer.from('Opening hours: 8-22 every day\n', 'utf8')),
      422,
      'service_point_photos.invalid_format',
    ],
    [
      'text declared as a PNG',
      () => photoFile(Buffer.from('<html><script>alert(1)</script></html>'), 'logo.png', 'image/png'),
      422,
      'service_point_photos.invalid_format',
    ],
    [
      'a real JPEG declared as a PDF',
      () => photoFile(JPEG, 'front.pdf', 'application/pdf'),
      422,
      'service_point_photos.invalid_format',
    ],
    [
      'an SVG image',
      () => photoFile(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'a.svg', 'image/svg+xml'),
      422,
      'service_point_photos.invalid_format',
    ],
  ])('refuses %s with its status and catalogue message, storing nothing', async (_what, file, status, messageKey) => {
    const id = ids[2];
    const baseline = await state();
    const answer = await upload(operator, id, file());
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ success: false, message_key: messageKey });
    expect(answer.body.message).toBe(status === 413 ? 'File is too large' : 'Invalid photo format');
    expect(await state()).toEqual(baseline);
  });

  it.each([
    ['no service_point_id', { service_point_id: undefined, ...photoFile(JPEG) }, 400],
    ['an unknown service point', { service_point_id: 999999, ...photoFile(JPEG) }, 404],
    ['no file', { file_name: 'a.jpg', content_type: 'image/jpeg' }, 400],
    ['data that is not base64', { ...photoFile(JPEG), data: '<<not base64>>' }, 400],
    ['a file name with folders', { ...photoFile(JPEG, '../../etc/passwd.jpg') }, 400],
    ['a file name with control characters', { ...photoFile(JPEG, 'a\u0000b.jpg') }, 400],
    ['a version older than the stored one', { ...photoFile(JPEG), version: 0 }, 409],
  ])('refuses %s with a clean 4xx, storing nothing', async (_what, body, status) => {
    const baseline = await state();
    const answer = await stack.send(operator, {
      method: 'PUT',
      path: ENDPOINT,
      body: { service_point_id: ids[3], ...body },
    });
    expect(answer.status).toBe(status);
    expect(typeof answer.body.message).toBe('string');
    expect(await state()).toEqual(baseline);
  });

  it('a location owner can add no photo to another owner’s service point, nor remove one', async () => {
    const id = ids[0];
    const photos = (await servicePoint(operator, id)).photos!;
    const baseline = await state();
    const added = await upload(locationOwner, id, photoFile(JPEG));
    expect([403, 404]).toContain(added.status);
    const removed = await removePhoto(locationOwner, id, photos[0].photo_id);
    expect([403, 404]).toContain(removed.status);
    expect(await servicePoint(locationOwner, id)).toBeUndefined();
    expect(await state()).toEqual(baseline);
  });
});

describe('the photo calls refuse malformed parameters with their keyed 400', () => {
  it('names the first parameter wrong and writes nothing', async () => {
    const id = ids[1];
    const baseline = await state();
    const keyOf = async (answer: Promise<{ status: number; body: Record<string, unknown> }>) => {
      const { status, body } = await answer;
      return [status, body.message_key, body.args];
    };
    expect(await keyOf(removePhoto(operator, id, undefined))).toEqual([
      400,
      'gateway.param_required',
      { name: 'photo_id' },
    ]);
    for (const photoId of ['', 5, null]) {
      expect(await keyOf(removePhoto(operator, id, photoId))).toEqual([
        400,
        'gateway.photo_of_service_point',
        undefined,
      ]);
    }
    const staleShape = stack.send(operator, {
      method: 'DELETE',
      path: ENDPOINT,
      body: { opname: 'photo', service_point_id: id, version: '1', photo_id: 5 },
    });
    expect(await keyOf(staleShape)).toEqual([400, 'gateway.version_required', undefined]);
    expect(await keyOf(upload(operator, id, photoFile(JPEG), { photo_id: '' }))).toEqual([
      400,
      'gateway.photo_of_service_point',
      undefined,
    ]);
    // Replacing a photo of the full gallery, so that the bytes are what is looked at.
    const replacing = { photo_id: (await servicePoint(operator, id)).photos![0].photo_id };
    expect(await keyOf(upload(operator, id, { ...photoFile(JPEG), data: 'not base64!' }, replacing))).toEqual([
      400,
      'gateway.base64_expected',
      undefined,
    ]);
    expect(await state()).toEqual(baseline);
  });
});

describe('removing a service point photo (DELETE webtool/service_points opname=photo)', () => {
  it('removes the photo and its file, recorded in the audit trail; then a sixth fits again', async () => {
    const id = ids[1];
    const { photos, version } = await servicePoint(operator, id);
    const removed = await removePhoto(operator, id, photos![0].photo_id);
    expect(removed.status).toBe(200);
    const after = removed.body.data as ServicePoint;
    expect(after.version).toBe(version + 1);
    expect(after.photos).toEqual(photos!.slice(1));
    expect((await fetchFile(photos![0].url)).status).toBe(404);
    expect((await auditOf(id)).at(-1)).toMatchObject({
      action: 'update',
      username: 'operator',
      changes: { photos: { from: photos, to: photos!.slice(1) } },
    });
    expect((await upload(operator, id, photoFile(JPEG, 'again.jpg'))).status).toBe(200);
  });

  it.each([
    ['a photo that is not there', 'no-such-photo', 404],
    ['no photo_id', undefined, 400],
  ])('refuses %s, changing nothing', async (_what, photoId, status) => {
    const baseline = await state();
    const answer = await removePhoto(operator, ids[1], photoId);
    expect(answer.status).toBe(status);
    expect(await state()).toEqual(baseline);
  });

  it('a client cannot set photos through an edit: the field is the gateway’s', async () => {
    const id = ids[0];
    const { photos, version } = await servicePoint(operator, id);
    const edited = await stack.send(operator, {
      method: 'PATCH',
      path: ENDPOINT,
      body: { service_point_id: id, version, photos: [{ photo_id: 'x', url: 'https://evil.example/x.jpg' }] },
    });
    expect(edited.status).toBe(200);
    expect((edited.body.data as ServicePoint).photos).toEqual(photos);
  });

  it('deleting a service point deletes its photo files', async () => {
    const [id] = await servicePointIds(
      `NOT EXISTS (SELECT 1 FROM records hw WHERE hw.resource = 'service_points/hardware_units'
         AND hw.doc->>'service_point_id' = records.key)
       AND NOT EXISTS (SELECT 1 FROM records s WHERE s.resource = 'shipments' AND s.doc->>'service_point_id' = records.key)
       AND (key)::int > ${Math.max(...ids)}`,
      1,
    );
    const uploaded = await upload(operator, id, photoFile(JPEG));
    const { photos, version } = uploaded.body.data as ServicePoint;
    const deleted = await stack.send(operator, {
      method: 'DELETE',
      path: ENDPOINT,
      body: { service_point_id: id, version },
    });
    expect(deleted.status).toBe(200);
    expect((await fetchFile(photos![0].url)).status).toBe(404);
  });
});

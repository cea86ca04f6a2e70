import { useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import { useNotify, useRecordContext, useRefresh, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import { useGateway } from '../gateway-api.ts';
import type { InputKindProps } from '../input-kinds.tsx';
import { PHOTO_MAX_COUNT } from '../../photo-upload.ts';
import { resourceEndpoints } from '../registry.ts';
import { base64Of, type ServicePointPhoto } from './photo-files.ts';
import { PhotoGalleryDialog, type PhotoActions } from './photo-gallery-dialog.tsx';

const STRIP_SIZE = 56;

/**
 * `x-input.kind: "photo-gallery"` on a record's readOnly `photos` (a service point's, a ticket's): the
 * photos in a strip and a "Photos (n/5)" button opening the gallery. Changes are saved at once, outside
 * the form's save (`PUT webtool/<endpoint>`, `DELETE ... opname=photo` with the record's id field); the
 * record reloads, and the form keeps what was typed meanwhile (schema-form.tsx).
 */
export function PhotoGalleryInput({ field }: Pick<InputKindProps, 'field'>) {
  const record = useRecordContext();
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useGateway();
  const [open, setOpen] = useState(false);
  // The gateway's answer shows at once; the refreshed record takes over once it is as new.
  const [answered, setAnswered] = useState<RaRecord>();
  if (record?.id === undefined) return null;

  const recordId = record.id;
  const latest = answered && answered.id === recordId && answered.version >= record.version ? answered : record;
  const photos = Array.isArray(latest[field.source]) ? (latest[field.source] as ServicePointPhoto[]) : [];
  const count = { count: photos.length, max: PHOTO_MAX_COUNT };

  // Refused or not, the record reloads: a refusal often means the photos changed elsewhere meanwhile.
  const thenRefresh = async (change: () => Promise<void>) => {
    try {
      await change();
    } finally {
      refresh();
    }
  };

  const actions: PhotoActions = {
    upload: ({ fileName, content, contentType, replacing }) =>
      thenRefresh(async () => {
        const data = base64Of(new Uint8Array(await content.arrayBuffer()));
        const answer = await dataProvider.put(resource, {
          id: recordId,
          data: {
            file_name: fileName,
            content_type: contentType,
            data,
            ...(replacing ? { photo_id: replacing } : {}),
          },
        });
        setAnswered(answer.data);
        notify(replacing ? 'service_point_photos.replaced' : 'service_point_photos.uploaded', { type: 'success' });
      }),
    remove: (photoId) =>
      thenRefresh(async () => {
        const answer = await dataProvider.action<{ data: RaRecord }>(resource, 'DELETE', 'photo', {
          [resourceEndpoints()[resource]?.id ?? 'id']: recordId,
          photo_id: photoId,
        });
        setAnswered({ ...answer.data, id: recordId });
        notify('service_point_photos.removed', { type: 'success' });
      }),
  };

  return (
    <Box component="section" aria-labelledby={`${resource}-photos-heading`} sx={{ my: 1 }}>
      <Typography id={`${resource}-photos-heading`} variant="subtitle2" component="h3">
        {translate('service_point_photos.section')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ my: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {photos.length ? (
          photos.map((photo, index) => (
            <Box
              key={photo.photo_id}
              component="img"
              src={photo.url}
              alt={translate('service_point_photos.photo_alt', { index: index + 1, name: photo.file_name ?? '' })}
              sx={{ width: STRIP_SIZE, height: STRIP_SIZE, objectFit: 'cover', borderRadius: 1 }}
            />
          ))
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('service_point_photos.empty')}
          </Typography>
        )}
      </Stack>
      <Button variant="outlined" startIcon={<PhotoLibraryIcon />} onClick={() => setOpen(true)}>
        {translate('service_point_photos.open_gallery', count)}
      </Button>
      {open && (
        <PhotoGalleryDialog
          photos={photos}
          actions={actions}
          onClose={() => setOpen(false)}
          limits={{ maxBytes: field.input.maxBytes, refusal: field.input.refusal }}
        />
      )}
    </Box>
  );
}

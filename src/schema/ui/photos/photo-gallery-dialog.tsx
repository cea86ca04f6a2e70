import { useEffect, useState, type ChangeEvent, type DragEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  ButtonBase,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import AddPhotoIcon from '@mui/icons-material/AddPhotoAlternate';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import { Confirm, useTranslate } from 'react-admin';
import { PHOTO_CONTENT_TYPES, PHOTO_MAX_BYTES, PHOTO_MAX_COUNT, isPhotoContentType } from '../../photo-upload.ts';
import { checkPhotoFile, photoFileName, type PhotoLimits, type ServicePointPhoto } from './photo-files.ts';
import { PhotoEditorDialog, type EditedPhoto, type EditorResult } from './photo-editor-dialog.tsx';
import { WebcamCaptureDialog } from './webcam-capture-dialog.tsx';

/** What the gallery asks of the gateway; each gives the service point's photos after the change. */
export interface PhotoActions {
  upload(photo: { fileName: string; content: Blob; contentType: string; replacing?: string }): Promise<void>;
  remove(photoId: string): Promise<void>;
}

type Editing = EditedPhoto & { replacing?: string };

const THUMBNAIL = 132;

/**
 * The photo gallery of a service point (spec 02 §3, at most 5): thumbnails, one photo large, delete with
 * a confirmation, add by file picker, drag and drop or webcam; every new photo passes the gateway's checks
 * here first and then the editor, where it may be turned, cropped and resized before upload.
 */
export function PhotoGalleryDialog({
  photos,
  actions,
  onClose,
  limits = {},
}: {
  photos: ServicePointPhoto[];
  actions: PhotoActions;
  onClose: () => void;
  limits?: PhotoLimits;
}) {
  const translate = useTranslate();
  const [viewing, setViewing] = useState<number>();
  // Back from the large view, the focus returns to the photo that was open, not to the page below.
  const [lastViewed, setLastViewed] = useState<number>();
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<ServicePointPhoto>();
  const [camera, setCamera] = useState(false);
  const [uploading, setUploading] = useState<string>();
  const [removing, setRemoving] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [problem, setProblem] = useState<string>();
  const busy = uploading !== undefined || removing;
  const titleId = 'photo-gallery-title';
  const count = { count: photos.length, max: PHOTO_MAX_COUNT };
  const viewed = viewing === undefined ? undefined : photos[viewing];
  const nameOf = (photo: ServicePointPhoto, index: number) => photo.file_name ?? `${index + 1}`;

  // Object URLs of picked files live as long as the editor shows them.
  useEffect(() => {
    const source = editing?.file ? editing.source : undefined;
    return () => {
      if (source) URL.revokeObjectURL(source);
    };
  }, [editing]);

  async function addFile(file: File | undefined) {
    if (!file || busy) return;
    setProblem(undefined);
    const checked = await checkPhotoFile(file, photos.length, false, limits);
    if ('problem' in checked) {
      setProblem(translate(checked.problem));
      return;
    }
    setEditing({
      source: URL.createObjectURL(file),
      fileName: photoFileName(file.name, checked.contentType),
      contentType: checked.contentType,
      file,
    });
  }

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Choosing the same file again after a refusal must still be noticed.
    event.target.value = '';
    void addFile(file);
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void addFile(event.dataTransfer.files[0]);
  }

  function editStored(photo: ServicePointPhoto) {
    setProblem(undefined);
    const contentType =
      photo.content_type && isPhotoContentType(photo.content_type) ? photo.content_type : 'image/jpeg';
    setEditing({
      source: photo.url,
      fileName: photo.file_name ?? 'photo',
      contentType,
      replacing: photo.photo_id,
    });
  }

  async function save(photo: Editing, result: EditorResult) {
    // An edit may have made the photo larger (2x): judged again before it is sent.
    const checked = await checkPhotoFile(result.content, photos.length, photo.replacing !== undefined, limits);
    if ('problem' in checked) {
      setEditing(undefined);
      setProblem(translate(checked.problem));
      return;
    }
    const fileName = photoFileName(photo.fileName, checked.contentType);
    setEditing(undefined);
    setUploading(fileName);
    try {
      await actions.upload({
        fileName,
        content: result.content,
        contentType: checked.contentType,
        replacing: photo.replacing,
      });
    } catch (error) {
      // The gateway client has already translated the catalogue message.
      setProblem((error as Error).message);
    } finally {
      setUploading(undefined);
    }
  }

  async function remove(photo: ServicePointPhoto) {
    setDeleting(undefined);
    setProblem(undefined);
    setViewing(undefined);
    setRemoving(true);
    try {
      await actions.remove(photo.photo_id);
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setRemoving(false);
    }
  }

  const photoButtons = (photo: ServicePointPhoto, index: number) => (
    <>
      <Tooltip title={translate('service_point_photos.edit', { index: index + 1 })}>
        <span>
          <IconButton
            size="small"
            aria-label={translate('service_point_photos.edit', { index: index + 1 })}
            onClick={() => editStored(photo)}
            disabled={busy}
          >
            <EditIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={translate('service_point_photos.delete', { index: index + 1 })}>
        <span>
          <IconButton
            size="small"
            color="error"
            aria-label={translate('service_point_photos.delete', { index: index + 1 })}
            onClick={() => setDeleting(photo)}
            disabled={busy}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    </>
  );

  return (
    <>
      <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby={titleId}>
        <DialogTitle id={titleId} sx={{ pr: 6 }}>
          {translate('service_point_photos.title', count)}
        </DialogTitle>
        {/* Beside the title, not in it: the dialog is named by the title alone. */}
        <IconButton
          aria-label={translate('service_point_photos.close')}
          onClick={onClose}
          disabled={busy}
          sx={{ position: 'absolute', right: 8, top: 8 }}
        >
          <CloseIcon />
        </IconButton>
        <DialogContent>
          {viewed && viewing !== undefined ? (
            <Box component="figure" sx={{ m: 0 }}>
              <Box
                component="img"
                src={viewed.url}
                alt={translate('service_point_photos.photo_alt', { index: viewing + 1, name: nameOf(viewed, viewing) })}
                sx={{ display: 'block', maxWidth: '100%', maxHeight: '60vh', mx: 'auto', borderRadius: 1 }}
              />
              <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
                <Button
                  startIcon={<ArrowBackIcon />}
                  autoFocus
                  onClick={() => {
                    setLastViewed(viewing);
                    setViewing(undefined);
                  }}
                >
                  {translate('service_point_photos.back')}
                </Button>
                <IconButton
                  aria-label={translate('service_point_photos.previous')}
                  onClick={() => setViewing(viewing - 1)}
                  disabled={viewing === 0}
                >
                  <ChevronLeftIcon />
                </IconButton>
                <IconButton
                  aria-label={translate('service_point_photos.next')}
                  onClick={() => setViewing(viewing + 1)}
                  disabled={viewing === photos.length - 1}
                >
                  <ChevronRightIcon />
                </IconButton>
                <Typography component="figcaption" variant="body2" sx={{ flex: 1 }} noWrap>
                  {nameOf(viewed, viewing)}
                </Typography>
                {photoButtons(viewed, viewing)}
              </Stack>
            </Box>
          ) : (
            <>
              {photos.length ? (
                <Box
                  component="ul"
                  aria-label={translate('service_point_photos.section')}
                  sx={{
                    listStyle: 'none',
                    p: 0,
                    m: 0,
                    display: 'grid',
                    gap: 2,
                    gridTemplateColumns: `repeat(auto-fill, minmax(${THUMBNAIL}px, 1fr))`,
                  }}
                >
                  {photos.map((photo, index) => (
                    <Box component="li" key={photo.photo_id}>
                      <ButtonBase
                        onClick={() => setViewing(index)}
                        autoFocus={index === lastViewed}
                        aria-label={translate('service_point_photos.open', {
                          index: index + 1,
                          name: nameOf(photo, index),
                        })}
                        sx={{ display: 'block', width: '100%', borderRadius: 1, overflow: 'hidden' }}
                      >
                        <Box
                          component="img"
                          src={photo.url}
                          alt={translate('service_point_photos.photo_alt', {
                            index: index + 1,
                            name: nameOf(photo, index),
                          })}
                          sx={{ display: 'block', width: '100%', height: THUMBNAIL, objectFit: 'cover' }}
                        />
                      </ButtonBase>
                      <Stack direction="row" sx={{ alignItems: 'center' }}>
                        <Typography variant="caption" noWrap sx={{ flex: 1 }} title={nameOf(photo, index)}>
                          {nameOf(photo, index)}
                        </Typography>
                        {photoButtons(photo, index)}
                      </Stack>
                    </Box>
                  ))}
                </Box>
              ) : (
                <Typography color="text.secondary">{translate('service_point_photos.empty')}</Typography>
              )}
              <Box
                onDragOver={(event) => {
                  event.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={drop}
                data-testid="photo-drop-zone"
                sx={{
                  mt: 2,
                  p: 2,
                  border: 2,
                  borderStyle: 'dashed',
                  borderRadius: 1,
                  borderColor: dragging ? 'primary.main' : 'divider',
                  bgcolor: dragging ? 'action.hover' : undefined,
                  textAlign: 'center',
                }}
              >
                <Typography variant="body2" sx={{ mb: 1 }}>
                  {translate(dragging ? 'service_point_photos.dropping' : 'service_point_photos.drop_zone')}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ justifyContent: 'center', flexWrap: 'wrap' }}>
                  <Button component="label" variant="outlined" startIcon={<AddPhotoIcon />} disabled={busy}>
                    {translate('service_point_photos.choose')}
                    <input
                      type="file"
                      accept={PHOTO_CONTENT_TYPES.join(',')}
                      hidden
                      disabled={busy}
                      onChange={choose}
                    />
                  </Button>
                  <Button
                    variant="outlined"
                    startIcon={<PhotoCameraIcon />}
                    onClick={() => setCamera(true)}
                    disabled={busy}
                  >
                    {translate('service_point_photos.webcam')}
                  </Button>
                </Stack>
                <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
                  {translate('service_point_photos.hint', {
                    max: PHOTO_MAX_COUNT,
                    size: (limits.maxBytes ?? PHOTO_MAX_BYTES) / (1024 * 1024),
                  })}
                </Typography>
              </Box>
            </>
          )}
          {uploading !== undefined && (
            <Box role="status" sx={{ mt: 2 }}>
              <Typography variant="body2">
                {translate('service_point_photos.uploading', { name: uploading })}
              </Typography>
              <LinearProgress aria-label={translate('service_point_photos.uploading', { name: uploading })} />
            </Box>
          )}
          {removing && <LinearProgress aria-label={translate('service_point_photos.removing')} sx={{ mt: 2 }} />}
          {problem && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }} onClose={() => setProblem(undefined)}>
              {problem}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {translate('service_point_photos.close')}
          </Button>
        </DialogActions>
      </Dialog>
      {editing && (
        <PhotoEditorDialog
          photo={editing}
          busy={busy}
          onSave={(result) => void save(editing, result)}
          onClose={() => setEditing(undefined)}
        />
      )}
      {camera && (
        <WebcamCaptureDialog
          onClose={() => setCamera(false)}
          onCapture={(file) => {
            setCamera(false);
            void addFile(file);
          }}
        />
      )}
      <Confirm
        isOpen={deleting !== undefined}
        title="service_point_photos.delete_title"
        content="service_point_photos.delete_content"
        translateOptions={{ name: deleting?.file_name ?? '' }}
        onConfirm={() => deleting && void remove(deleting)}
        onClose={() => setDeleting(undefined)}
      />
    </>
  );
}

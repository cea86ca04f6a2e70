import { useEffect, useMemo, useState } from 'react';
import Cropper from 'react-easy-crop';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Slider,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import RotateLeftIcon from '@mui/icons-material/RotateLeft';
import RotateRightIcon from '@mui/icons-material/RotateRight';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslate } from 'react-admin';
import type { PhotoContentType } from '../../photo-upload.ts';
import {
  DOWNLOAD_QUALITY,
  DOWNLOAD_TYPE,
  OUTPUT_FACTORS,
  outputSize,
  renderPhoto,
  rotate,
  rotatedSize,
  savedType,
  type CropArea,
  type OutputFactor,
  type Rotation,
} from './photo-files.ts';

/** The photo being edited: a file picked or captured before upload, or a stored photo. */
export interface EditedPhoto {
  source: string;
  fileName: string;
  contentType: PhotoContentType;
  /** A new photo, not yet uploaded: saving it unchanged sends the original bytes. */
  file?: File;
}

/** What the editor hands back to be uploaded. */
export interface EditorResult {
  content: Blob;
  contentType: PhotoContentType;
}

const ASPECTS = {
  original: undefined,
  square: 1,
  landscape: 4 / 3,
  wide: 16 / 9,
} as const;
type AspectName = keyof typeof ASPECTS;

const FACTOR_LABELS: Record<OutputFactor, string> = {
  0.5: 'service_point_photos.editor.size_half',
  1: 'service_point_photos.editor.size_actual',
  2: 'service_point_photos.editor.size_double',
};

const MAX_ZOOM = 4;

function useLoadedImage(source: string) {
  const [image, setImage] = useState<HTMLImageElement>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    const element = new Image();
    element.src = source;
    element
      .decode()
      .then(() => current && setImage(element))
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [source]);
  return { image, failed };
}

/**
 * Spec 02 §9 photo editor: rotate by quarter turns, crop (react-easy-crop: drag, zoom, keyboard), output
 * size 0.5x, 1x or 2x; "Save" hands the edited image back for upload, "Download" saves it as JPEG at
 * quality 0.75. Saving a new photo left as it was sends the original file, untouched.
 */
export function PhotoEditorDialog({
  photo,
  busy,
  onSave,
  onClose,
}: {
  photo: EditedPhoto;
  busy: boolean;
  onSave: (result: EditorResult) => void;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const { image, failed } = useLoadedImage(photo.source);
  const [rotation, setRotation] = useState<Rotation>(0);
  const [position, setPosition] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [aspectName, setAspectName] = useState<AspectName>('original');
  const [factor, setFactor] = useState<OutputFactor>(1);
  const [crop, setCrop] = useState<CropArea>();
  const [problem, setProblem] = useState<string>();

  const turned = image ? rotatedSize(image.naturalWidth, image.naturalHeight, rotation) : undefined;
  const aspect = ASPECTS[aspectName] ?? (turned ? turned.width / turned.height : 1);
  const unchanged = rotation === 0 && zoom === 1 && aspectName === 'original' && factor === 1;
  const result = crop ? outputSize(crop, factor) : undefined;
  const titleId = 'photo-editor-title';
  const cropperProps = useMemo(
    () => ({ 'aria-label': translate('service_point_photos.editor.crop_area') }),
    [translate],
  );

  function reset() {
    setRotation(0);
    setPosition({ x: 0, y: 0 });
    setZoom(1);
    setAspectName('original');
    setFactor(1);
  }

  async function edited(type: PhotoContentType, quality?: number) {
    return renderPhoto(image!, { crop: crop!, rotation, factor }, type, quality);
  }

  async function save() {
    setProblem(undefined);
    try {
      if (unchanged && photo.file) {
        onSave({ content: photo.file, contentType: photo.contentType });
        return;
      }
      const contentType = savedType(photo.contentType);
      onSave({ content: await edited(contentType), contentType });
    } catch {
      setProblem(translate('service_point_photos.editor.failed'));
    }
  }

  async function download() {
    setProblem(undefined);
    try {
      const blob = await edited(DOWNLOAD_TYPE, DOWNLOAD_QUALITY);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `${photo.fileName.replace(/\.[^.]*$/, '') || 'photo'}-edited.jpg`;
      document.body.append(link);
      link.click();
      link.remove();
      // The browser has taken the file once the click is handled.
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    } catch {
      setProblem(translate('service_point_photos.editor.failed'));
    }
  }

  const ready = Boolean(image && crop);
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {translate(photo.file ? 'service_point_photos.editor.new_title' : 'service_point_photos.editor.title')}
        <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
          {photo.fileName}
        </Typography>
      </DialogTitle>
      <DialogContent>
        <Box sx={{ position: 'relative', height: { xs: 260, sm: 380 }, bgcolor: 'grey.900', borderRadius: 1 }}>
          {image && (
            <Cropper
              image={photo.source}
              crop={position}
              zoom={zoom}
              maxZoom={MAX_ZOOM}
              rotation={rotation}
              aspect={aspect}
              onCropChange={setPosition}
              onZoomChange={setZoom}
              onCropComplete={(_area, pixels) => setCrop(pixels)}
              cropperProps={cropperProps}
              mediaProps={{ alt: photo.fileName }}
            />
          )}
        </Box>
        {failed && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {translate('service_point_photos.editor.failed')}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 2, alignItems: { sm: 'center' } }}>
          <Stack direction="row" spacing={1}>
            <Tooltip title={translate('service_point_photos.editor.rotate_left')}>
              <IconButton
                aria-label={translate('service_point_photos.editor.rotate_left')}
                onClick={() => setRotation((value) => rotate(value, -90))}
                disabled={!image}
              >
                <RotateLeftIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title={translate('service_point_photos.editor.rotate_right')}>
              <IconButton
                aria-label={translate('service_point_photos.editor.rotate_right')}
                onClick={() => setRotation((value) => rotate(value, 90))}
                disabled={!image}
              >
                <RotateRightIcon />
              </IconButton>
            </Tooltip>
          </Stack>
          <Box sx={{ flex: 1, minWidth: 160, px: 1 }}>
            <Typography id="photo-editor-zoom" variant="caption">
              {translate('service_point_photos.editor.zoom')}
            </Typography>
            <Slider
              value={zoom}
              min={1}
              max={MAX_ZOOM}
              step={0.1}
              onChange={(_event, value) => setZoom(value as number)}
              aria-labelledby="photo-editor-zoom"
              disabled={!image}
            />
          </Box>
        </Stack>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mt: 1 }}>
          <Box>
            <Typography id="photo-editor-aspect" variant="caption" component="div">
              {translate('service_point_photos.editor.aspect')}
            </Typography>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={aspectName}
              onChange={(_event, value: AspectName | null) => value && setAspectName(value)}
              aria-labelledby="photo-editor-aspect"
            >
              {(Object.keys(ASPECTS) as AspectName[]).map((name) => (
                <ToggleButton key={name} value={name}>
                  {translate(`service_point_photos.editor.aspect_${name}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Box>
          <Box>
            <Typography id="photo-editor-size" variant="caption" component="div">
              {translate('service_point_photos.editor.size')}
            </Typography>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={factor}
              onChange={(_event, value: OutputFactor | null) => value && setFactor(value)}
              aria-labelledby="photo-editor-size"
            >
              {OUTPUT_FACTORS.map((value) => (
                <ToggleButton key={value} value={value}>
                  {translate(FACTOR_LABELS[value])}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Box>
        </Stack>
        {result && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} aria-live="polite">
            {translate('service_point_photos.editor.result', result)}
          </Typography>
        )}
        {problem && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {problem}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={reset} disabled={busy || unchanged}>
          {translate('service_point_photos.editor.reset')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose} disabled={busy}>
          {translate('ra.action.cancel')}
        </Button>
        <Button startIcon={<DownloadIcon />} onClick={download} disabled={!ready}>
          {translate('service_point_photos.editor.download')}
        </Button>
        <Button variant="contained" onClick={save} disabled={!ready || busy || (unchanged && !photo.file)}>
          {translate('service_point_photos.editor.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import { useTranslate } from 'react-admin';

/** The translated reason a camera could not be opened, from the getUserMedia error's name. */
export function cameraProblem(error: unknown) {
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'service_point_photos.camera.denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NoCamera') {
    return 'service_point_photos.camera.no_camera';
  }
  return 'service_point_photos.camera.failed';
}

const CAPTURE_TYPE = 'image/jpeg';
const CAPTURE_QUALITY = 0.92;

function stop(stream: MediaStream | undefined) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * Webcam capture (getUserMedia): a live preview, "Capture" takes the current frame as a JPEG file and
 * hands it on to be edited and uploaded like a picked file. The camera is released when the dialog
 * closes, whatever closes it.
 */
export function WebcamCaptureDialog({ onCapture, onClose }: { onCapture: (file: File) => void; onClose: () => void }) {
  const translate = useTranslate();
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream>();
  const [ready, setReady] = useState(false);
  const [failure, setProblem] = useState<string>();
  const supported = Boolean(navigator.mediaDevices?.getUserMedia);
  const problem = supported ? failure : 'service_point_photos.camera.no_camera';
  const titleId = 'webcam-capture-title';

  useEffect(() => {
    if (!supported) return;
    let current = true;
    let opened: MediaStream | undefined;
    navigator.mediaDevices
      .getUserMedia({ video: true, audio: false })
      .then((found) => {
        opened = found;
        // Closed while the browser was still asking: the camera must not stay on.
        if (!current) stop(found);
        else setStream(found);
      })
      .catch((error: unknown) => current && setProblem(cameraProblem(error)));
    return () => {
      current = false;
      stop(opened);
    };
  }, [supported]);

  useEffect(() => {
    if (video.current && stream) video.current.srcObject = stream;
  }, [stream]);

  function capture() {
    const element = video.current;
    if (!element?.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = element.videoWidth;
    canvas.height = element.videoHeight;
    canvas.getContext('2d')!.drawImage(element, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (!blob) {
          setProblem('service_point_photos.camera.failed');
          return;
        }
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        onCapture(new File([blob], `webcam-${stamp}.jpg`, { type: CAPTURE_TYPE }));
      },
      CAPTURE_TYPE,
      CAPTURE_QUALITY,
    );
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{translate('service_point_photos.camera.title')}</DialogTitle>
      <DialogContent>
        {problem ? (
          <Alert severity="warning" role="alert">
            {translate(problem)}
          </Alert>
        ) : (
          <Box sx={{ position: 'relative', bgcolor: 'grey.900', borderRadius: 1, minHeight: 200 }}>
            <video
              ref={video}
              autoPlay
              playsInline
              muted
              aria-label={translate('service_point_photos.camera.preview')}
              onLoadedMetadata={() => setReady(true)}
              style={{ width: '100%', display: 'block', borderRadius: 4 }}
            />
            {!ready && (
              <Stack
                direction="row"
                spacing={1}
                role="status"
                sx={{
                  position: 'absolute',
                  inset: 0,
                  alignItems: 'center',
                  justifyContent: 'center',
                  color: 'grey.100',
                }}
              >
                <CircularProgress size={20} color="inherit" />
                <Typography variant="body2">{translate('service_point_photos.camera.starting')}</Typography>
              </Stack>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" startIcon={<PhotoCameraIcon />} onClick={capture} disabled={!ready || !!problem}>
          {translate('service_point_photos.camera.capture')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

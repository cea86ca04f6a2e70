import { useEffect, useState } from 'react';
import { Snackbar } from '@mui/material';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslate } from './translation.tsx';

/** Toasts last 6000 ms, top right (spec 01 §9), as the admin's own. */
const TOAST_MS = 6000;

export interface Notice {
  /** A translation key. */
  message: string;
  type: 'success' | 'warning';
}

/** Navigation state that makes the next authentication screen show `message` as a toast. */
export function noticeState(message: string, type: Notice['type']): { notice: Notice } {
  return { notice: { message, type } };
}

function noticeOf(state: unknown): Notice | undefined {
  const notice = (state as { notice?: Notice } | null)?.notice;
  return typeof notice?.message === 'string' ? notice : undefined;
}

/**
 * The toast a screen leaves for the authentication screen it sends the user to ("Login is
 * expired.", "Password changed"), before react-admin and its notifications are loaded. Shown once:
 * the state is dropped from the history entry, so a reload does not say it again.
 */
export function NoticeToast() {
  const translate = useTranslate();
  const location = useLocation();
  const navigate = useNavigate();
  // Read once, as the screen opens: the effect below drops it from the history entry.
  const [notice] = useState(() => noticeOf(location.state));
  const [open, setOpen] = useState(true);
  const carriesNotice = noticeOf(location.state) !== undefined;

  useEffect(() => {
    if (carriesNotice) void navigate(location.pathname + location.search, { replace: true, state: null });
  }, [carriesNotice, location.pathname, location.search, navigate]);

  if (!notice) return null;
  return (
    <Snackbar
      open={open}
      autoHideDuration={TOAST_MS}
      onClose={(_event, reason) => reason !== 'clickaway' && setOpen(false)}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      message={translate(notice.message)}
      slotProps={{
        content: {
          sx: { bgcolor: `${notice.type}.main`, color: `${notice.type}.contrastText` },
        },
      }}
    />
  );
}

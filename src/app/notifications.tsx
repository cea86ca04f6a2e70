import { useEffect, useRef } from 'react';
import { Notification, useNotificationContext, type NotificationPayload } from 'react-admin';

/** Toasts: 6000 ms, top right (spec 01 §9). */
export const TOAST_MS = 6000;

const sameToast = (a: NotificationPayload, b: NotificationPayload) =>
  a.message === b.message &&
  a.type === b.type &&
  JSON.stringify(a.notificationOptions?.messageArgs) === JSON.stringify(b.notificationOptions?.messageArgs);

/**
 * Drops queued toasts that repeat one already queued, or the one on screen (shown less than
 * TOAST_MS ago): a failing poll or a double click never stacks the same message.
 */
export function withoutDuplicates(
  queue: NotificationPayload[],
  onScreen: { toast: NotificationPayload; since: number } | undefined,
  now: number,
): NotificationPayload[] {
  const kept: NotificationPayload[] = [];
  for (const toast of queue) {
    if (kept.some((k) => sameToast(k, toast))) continue;
    if (onScreen && now - onScreen.since < TOAST_MS && sameToast(onScreen.toast, toast)) continue;
    kept.push(toast);
  }
  return kept;
}

export function AppNotification() {
  const { notifications, setNotifications } = useNotificationContext();
  const previous = useRef<NotificationPayload[]>([]);
  const onScreen = useRef<{ toast: NotificationPayload; since: number }>(undefined);

  useEffect(() => {
    const head = previous.current[0];
    if (head && !notifications.includes(head)) onScreen.current = { toast: head, since: Date.now() };
    const unique = withoutDuplicates(notifications, onScreen.current, Date.now());
    previous.current = unique;
    if (unique.length !== notifications.length) setNotifications(unique);
  }, [notifications, setNotifications]);

  // Below the app bar and the page's own toolbar, so that the user menu and the page's buttons
  // (History, Export, Import) stay reachable while a toast shows.
  return (
    <Notification
      autoHideDuration={TOAST_MS}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      sx={{ top: { xs: 120, sm: 128 } }}
    />
  );
}

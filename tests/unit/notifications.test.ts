import { describe, expect, it } from 'vitest';
import type { NotificationPayload } from 'react-admin';
import { TOAST_MS, withoutDuplicates } from '../../src/app/notifications.tsx';

const toast = (message: string, type: NotificationPayload['type'] = 'error'): NotificationPayload => ({
  message,
  type,
});

describe('toasts', () => {
  it('drop a message already queued', () => {
    const queue = [
      toast('Save failed'),
      toast('Saved', 'success'),
      toast('Save failed'),
      toast('Save failed', 'warning'),
    ];
    expect(withoutDuplicates(queue, undefined, 0).map((t) => `${t.type}:${t.message}`)).toEqual([
      'error:Save failed',
      'success:Saved',
      'warning:Save failed',
    ]);
  });

  it('drop a message that is on screen, until its 6000 ms are over', () => {
    const onScreen = { toast: toast('Please try again'), since: 1000 };
    expect(withoutDuplicates([toast('Please try again')], onScreen, 1000 + TOAST_MS - 1)).toEqual([]);
    expect(withoutDuplicates([toast('Please try again')], onScreen, 1000 + TOAST_MS)).toHaveLength(1);
  });

  it('keep messages that differ only by their arguments', () => {
    const a = { ...toast('http.server_error'), notificationOptions: { messageArgs: { context: 'carriers' } } };
    const b = { ...toast('http.server_error'), notificationOptions: { messageArgs: { context: 'couriers' } } };
    expect(withoutDuplicates([a, b], undefined, 0)).toHaveLength(2);
  });
});

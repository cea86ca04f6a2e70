import { useEffect } from 'react';
import { useNotify } from 'react-admin';

type Listener = (message: string) => void;
const listeners = new Set<Listener>();

/** Failed list calls show an empty list; this carries their message to a toast. */
export const listErrors = {
  report: (message: string) => listeners.forEach((listener) => listener(message)),
};

export function ListErrorNotifier() {
  const notify = useNotify();
  useEffect(() => {
    const listener: Listener = (message) => notify(message, { type: 'error' });
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, [notify]);
  return null;
}

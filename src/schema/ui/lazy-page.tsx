import { createElement, useEffect, useState, type ComponentType } from 'react';
import { Loading } from 'react-admin';

export type LazyPage<Props extends object> = ComponentType<Props> & {
  /** Starts fetching the page's code before it is shown. */
  preload: () => void;
};

/**
 * A page whose code is a chunk of its own, fetched the first time the page opens (or when
 * preloaded); react-admin's loading indicator shows meanwhile, after its usual delay. Not
 * React.lazy: a Suspense boundary holds content back for 300 ms once it has shown its fallback,
 * which every first visit of a page would pay, even with its chunk already fetched.
 */
export function lazyPage<Props extends object>(load: () => Promise<ComponentType<Props>>): LazyPage<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const start = () =>
    (loading ??= load().then(
      (page) => (loaded = page),
      (error: unknown) => {
        // A failed fetch is tried again on the next visit.
        loading = undefined;
        throw error;
      },
    ));

  function Page(props: Props) {
    const [, setReady] = useState(false);
    const [failure, setFailure] = useState<unknown>();
    useEffect(() => {
      // Always through the promise, never "if (!loaded)": a preload may land between this
      // render and this effect, and a page that skipped it would wait for good.
      let current = true;
      start().then(
        () => current && setReady(true),
        (error: unknown) => current && setFailure(error),
      );
      return () => {
        current = false;
      };
    }, []);
    // To the error boundary, as a failed React.lazy would.
    if (failure) throw failure;
    return loaded ? createElement(loaded, props) : <Loading />;
  }
  return Object.assign(Page, { preload: () => void start().catch(() => undefined) });
}

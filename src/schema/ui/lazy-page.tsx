import { lazy, Suspense, type ComponentType } from 'react';
import { Loading } from 'react-admin';

/**
 * A page whose code is a chunk of its own, fetched the first time the page opens; react-admin's
 * loading indicator shows meanwhile (after its usual delay), inside the layout.
 */
export function lazyPage<Props extends object>(load: () => Promise<ComponentType<Props>>): ComponentType<Props> {
  const Page = lazy(async () => ({ default: await load() }));
  return function LazyPage(props: Props) {
    return (
      <Suspense fallback={<Loading />}>
        <Page {...props} />
      </Suspense>
    );
  };
}

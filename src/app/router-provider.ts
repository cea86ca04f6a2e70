import { useCallback, useContext, useLayoutEffect, useRef } from 'react';
import { reactRouterProvider, type RouterNavigateFunction, type RouterProvider } from 'react-admin';
import { UNSAFE_DataRouterContext, useLocation } from 'react-router-dom';

/**
 * react-admin's navigate, except that a page the user has already left cannot bring them back.
 *
 * A list changes its address relative to its own route (`navigate({ search })`): half a second
 * after a filter is typed (debounced), and when it syncs its stored parameters. If the user opens a
 * row meanwhile, the router already holds the record's address while the list is still on screen
 * (navigations are React transitions: the old page stays until the new one can show), and that
 * late change would take them back to the list. A navigation that names no path, asked by a page
 * whose path is no longer the router's, is dropped: it belongs to the page being left.
 */
function useNavigateFromHere(): RouterNavigateFunction {
  const navigate = reactRouterProvider.useNavigate();
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const { pathname } = useLocation();
  // The path this page was last shown at; kept in a ref so that navigate stays one function, as
  // react-admin's own is (components list it among their effects' dependencies).
  const shownAt = useRef(pathname);
  useLayoutEffect(() => {
    shownAt.current = pathname;
  }, [pathname]);
  return useCallback(
    (to, options) => {
      const relative = typeof to === 'object' && to.pathname === undefined;
      if (relative && router && router.state.location.pathname !== shownAt.current) return;
      navigate(to, options);
    },
    [navigate, router],
  );
}

export const routerProvider: RouterProvider = { ...reactRouterProvider, useNavigate: useNavigateFromHere };

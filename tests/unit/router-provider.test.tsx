import { act, cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense, type ComponentType } from 'react';
import { createMemoryRouter, Route, RouterProvider, Routes } from 'react-router-dom';
import type { RouterNavigateFunction } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { routerProvider } from '../../src/app/router-provider.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/**
 * A resource laid out as react-admin lays it out (descendant routes: the list, then a record page
 * whose code has not loaded yet), with the list's navigate held as its list parameters hold it.
 */
function setUp() {
  const held: { navigate?: RouterNavigateFunction } = {};
  let loadRecordPage = () => {};
  const RecordPage = lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve) => {
        loadRecordPage = () => resolve({ default: () => <p>record</p> });
      }),
  );
  function ListPage() {
    held.navigate = routerProvider.useNavigate();
    return <p>list</p>;
  }
  const resource = (
    <Routes>
      <Route path="/" element={<ListPage />} />
      <Route path=":id/*" element={<RecordPage />} />
    </Routes>
  );
  const shell = (
    <Suspense fallback={<p>loading</p>}>
      <Routes>
        <Route path="/things/*" element={resource} />
        <Route path="/elsewhere" element={<p>elsewhere</p>} />
      </Routes>
    </Suspense>
  );
  const router = createMemoryRouter([{ path: '*', element: shell }], { initialEntries: ['/things'] });
  render(<RouterProvider router={router} />);
  const address = () => router.state.location.pathname + router.state.location.search;
  const act_ = (work: () => unknown) =>
    act(async () => {
      void work();
      await settle();
    });
  return {
    address,
    go: (to: string) => act_(() => router.navigate(to)),
    listNavigates: (...args: Parameters<RouterNavigateFunction>) => act_(() => held.navigate?.(...args)),
    loadRecordPage: () => act_(loadRecordPage),
  };
}

describe('the app router provider', () => {
  afterEach(cleanup);

  it('lets the list on screen change its own address', async () => {
    const { address, listNavigates } = setUp();
    await listNavigates({ search: '?filter=1' });
    expect(address()).toBe('/things?filter=1');
    expect(screen.getByText('list')).toBeTruthy();
  });

  it('drops the list’s late address change once a row is opened, while the record page loads', async () => {
    const { address, go, listNavigates, loadRecordPage } = setUp();
    await go('/things/5');
    // A navigation is a transition: the list stays on screen while the record page's code loads,
    // and its debounced filter change lands now (react-router alone takes the user back to the list).
    expect(screen.getByText('list')).toBeTruthy();
    await listNavigates({ search: '?filter=1' }, { replace: true });
    expect(address()).toBe('/things/5');
    await loadRecordPage();
    expect(screen.getByText('record')).toBeTruthy();
    expect(address()).toBe('/things/5');
  });

  it('still follows a navigation that names its path', async () => {
    const { address, go, listNavigates } = setUp();
    await go('/things/5');
    await listNavigates('/elsewhere');
    expect(address()).toBe('/elsewhere');
  });
});

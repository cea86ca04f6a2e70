import { useLayoutEffect, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { lazyPage } from '../../src/schema/ui/lazy-page.tsx';

afterEach(cleanup);

function Profile({ name }: { name: string }) {
  return <p>Profile of {name}</p>;
}

describe('lazyPage', () => {
  it('fetches the page on its first visit only, then shows it at once', async () => {
    const load = vi.fn(async () => Profile);
    const Page = lazyPage(load);

    render(<Page name="operator" />);
    expect(screen.queryByText('Profile of operator')).toBeNull();
    expect(await screen.findByText('Profile of operator')).toBeTruthy();
    cleanup();

    // No loading state on the next visit: the page is there in the first render.
    render(<Page name="carrier" />);
    expect(screen.getByText('Profile of carrier')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('preloads once, so that the first visit shows the page at once', async () => {
    const load = vi.fn(async () => Profile);
    const Page = lazyPage(load);
    Page.preload();
    Page.preload();
    await act(async () => undefined);
    render(<Page name="operator" />);
    expect(screen.getByText('Profile of operator')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a failed fetch again on the next visit', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Profile);
    const Page = lazyPage<{ name: string }>(load);
    Page.preload();
    await act(async () => undefined);
    render(<Page name="operator" />);
    expect(await screen.findByText('Profile of operator')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
  });

  it("shows the page when its code arrives between the first render and the page's effect", async () => {
    // A preload (the admin starts one for every resource page) may finish in that gap; the page
    // used to wait for a load it had missed and showed the loading indicator for good.
    let deliver: (() => void) | undefined;
    const arriving = {
      then(onLoaded: (page: ComponentType<{ name: string }>) => unknown) {
        return new Promise((resolve) => {
          deliver = () => resolve(onLoaded(Profile));
        });
      },
    };
    const Page = lazyPage<{ name: string }>(() => arriving as unknown as Promise<ComponentType<{ name: string }>>);
    Page.preload();
    // Layout effects run before passive ones: the code lands after the page rendered its loading
    // state and before its own effect looks whether it is there.
    function Arrival() {
      useLayoutEffect(() => deliver?.(), []);
      return null;
    }
    render(
      <>
        <Page name="operator" />
        <Arrival />
      </>,
    );
    expect(await screen.findByText('Profile of operator')).toBeTruthy();
  });
});

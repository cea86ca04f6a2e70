import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, renderHook, screen } from '@testing-library/react';
import { renderInAdmin } from './support/admin.tsx';
import {
  GatewayJobProgress,
  REPORT_POLL_MS,
  useGatewayJob,
  type GatewayJobOptions,
  type JobPoll,
} from '../../src/schema/ui/gateway-job.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A job whose status call answers the given polls in order, then keeps answering the last. */
function scripted(answers: JobPoll<string>[]) {
  const request = vi.fn(async () => ({ request_id: 'r-1' }));
  const poll = vi.fn(async (_id: string) => answers[Math.min(poll.mock.calls.length - 1, answers.length - 1)]);
  const onDone = vi.fn();
  const options: GatewayJobOptions<string> = { request, poll, intervalMs: REPORT_POLL_MS, onDone };
  return { options, request, poll, onDone };
}

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('useGatewayJob', () => {
  it('requests, polls every interval with the request id until ready, and hands the result once', async () => {
    const { options, request, poll, onDone } = scripted([
      { status: 'pending', progress: 10 },
      { status: 'pending', progress: 60 },
      { status: 'ready', result: 'the file' },
    ]);
    const { result } = renderHook(() => useGatewayJob(options));
    act(() => result.current.start());
    await tick(0);
    expect(request).toHaveBeenCalledTimes(1);
    expect(poll).not.toHaveBeenCalled();

    await tick(REPORT_POLL_MS - 1);
    expect(poll).not.toHaveBeenCalled();
    await tick(1);
    expect(poll).toHaveBeenLastCalledWith('r-1');
    expect(result.current.state).toEqual({ phase: 'running', progress: 10 });

    await tick(REPORT_POLL_MS);
    expect(result.current.state).toEqual({ phase: 'running', progress: 60 });
    await tick(REPORT_POLL_MS);
    expect(result.current.state).toEqual({ phase: 'done', result: 'the file' });
    expect(onDone).toHaveBeenCalledExactlyOnceWith('the file');

    await tick(REPORT_POLL_MS * 5);
    expect(poll).toHaveBeenCalledTimes(3);
  });

  it('stops at a failed job with its message', async () => {
    const { options, poll, onDone } = scripted([{ status: 'failed', message: 'No data' }]);
    const { result } = renderHook(() => useGatewayJob(options));
    act(() => result.current.start());
    await tick(REPORT_POLL_MS);
    expect(result.current.state).toEqual({ phase: 'failed', message: 'No data' });
    await tick(REPORT_POLL_MS * 3);
    expect(poll).toHaveBeenCalledTimes(1);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('fails with the gateway message when the request is refused', async () => {
    const { options, poll } = scripted([]);
    options.request = async () => {
      throw new Error('You have no permission for this request.');
    };
    const { result } = renderHook(() => useGatewayJob(options));
    act(() => result.current.start());
    await tick(0);
    expect(result.current.state).toEqual({ phase: 'failed', message: 'You have no permission for this request.' });
    expect(poll).not.toHaveBeenCalled();
  });

  it('stops polling when cancelled', async () => {
    const { options, poll, onDone } = scripted([{ status: 'pending' }, { status: 'ready', result: 'late' }]);
    const { result } = renderHook(() => useGatewayJob(options));
    act(() => result.current.start());
    await tick(REPORT_POLL_MS);
    expect(poll).toHaveBeenCalledTimes(1);
    act(() => result.current.cancel());
    expect(result.current.state).toEqual({ phase: 'cancelled' });
    await tick(REPORT_POLL_MS * 4);
    expect(poll).toHaveBeenCalledTimes(1);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('ignores an answer that arrives after the cancel', async () => {
    let answer: (poll: JobPoll<string>) => void = () => undefined;
    const { options, onDone } = scripted([]);
    options.poll = () => new Promise((resolve) => (answer = resolve));
    const { result } = renderHook(() => useGatewayJob(options));
    act(() => result.current.start());
    await tick(REPORT_POLL_MS);
    act(() => result.current.cancel());
    await act(async () => answer({ status: 'ready', result: 'late' }));
    expect(result.current.state).toEqual({ phase: 'cancelled' });
    expect(onDone).not.toHaveBeenCalled();
  });

  it('stops polling when the component unmounts', async () => {
    const { options, poll } = scripted([{ status: 'pending' }]);
    const { result, unmount } = renderHook(() => useGatewayJob(options));
    act(() => result.current.start());
    await tick(REPORT_POLL_MS);
    expect(poll).toHaveBeenCalledTimes(1);
    unmount();
    await tick(REPORT_POLL_MS * 4);
    expect(poll).toHaveBeenCalledTimes(1);
  });
});

describe('GatewayJobProgress', () => {
  function Report({ options }: { options: GatewayJobOptions<string> }) {
    const job = useGatewayJob(options);
    return (
      <>
        <button onClick={job.start}>Run</button>
        <GatewayJobProgress job={job} label="Service point report" />
      </>
    );
  }

  it('shows the progress while running and offers a cancel that stops it', async () => {
    const { options, poll } = scripted([{ status: 'pending', progress: 40 }]);
    renderInAdmin(<Report options={options} />);
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await tick(0);
    expect(screen.getByRole('status').textContent).toBe('Working…');
    await tick(REPORT_POLL_MS);
    expect(screen.getByRole('status').textContent).toBe('Working… 40%');
    expect(screen.getByRole('progressbar', { name: 'Service point report' }).getAttribute('aria-valuenow')).toBe('40');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await tick(0);
    expect(screen.getByRole('status').textContent).toBe('Cancelled.');
    await tick(REPORT_POLL_MS * 3);
    expect(poll).toHaveBeenCalledTimes(1);
  });

  it('shows why a job failed', async () => {
    const { options } = scripted([{ status: 'failed', message: 'No data' }]);
    renderInAdmin(<Report options={options} />);
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await tick(REPORT_POLL_MS);
    expect(screen.getByRole('alert').textContent).toBe('The job failed: No data');
  });
});

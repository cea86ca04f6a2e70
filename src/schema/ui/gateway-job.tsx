import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** Spec 01 §9: reports are polled every 1.5 s, CSV jobs every 3 s. */
export const REPORT_POLL_MS = 1500;
export const CSV_POLL_MS = 3000;

/** One answer of the job's status call. */
export type JobPoll<T> =
  { status: 'pending'; progress?: number } | { status: 'ready'; result: T } | { status: 'failed'; message: string };

export interface GatewayJobOptions<T> {
  /** Asks the gateway for the job; it answers the id to poll with. */
  request: () => Promise<{ request_id: string }>;
  poll: (requestId: string) => Promise<JobPoll<T>>;
  intervalMs: number;
  /** Handed the result once, when the job is done. */
  onDone?: (result: T) => void;
}

export type GatewayJobState<T> =
  | { phase: 'idle' }
  | { phase: 'running'; progress?: number }
  | { phase: 'done'; result: T }
  | { phase: 'failed'; message: string }
  | { phase: 'cancelled' };

export interface GatewayJob<T> {
  state: GatewayJobState<T>;
  start: () => void;
  cancel: () => void;
}

/**
 * A gateway job requested, then polled every `intervalMs` until it is ready or failed. One poll at a
 * time: the next waits for the previous answer. Cancelling, a new start or unmounting stops the
 * polling, and a late answer of a stopped run changes nothing.
 */
export function useGatewayJob<T>(options: GatewayJobOptions<T>): GatewayJob<T> {
  const [state, setState] = useState<GatewayJobState<T>>({ phase: 'idle' });
  const latest = useRef(options);
  const run = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    latest.current = options;
  });

  const stop = useCallback(() => {
    run.current += 1;
    clearTimeout(timer.current);
  }, []);

  useEffect(() => stop, [stop]);

  const start = useCallback(() => {
    stop();
    const current = run.current;
    const live = () => run.current === current;
    const fail = (error: unknown) => live() && setState({ phase: 'failed', message: (error as Error).message });
    setState({ phase: 'running' });

    const check = (requestId: string) => {
      latest.current.poll(requestId).then((answer) => {
        if (!live()) return;
        if (answer.status === 'ready') {
          setState({ phase: 'done', result: answer.result });
          latest.current.onDone?.(answer.result);
        } else if (answer.status === 'failed') {
          setState({ phase: 'failed', message: answer.message });
        } else {
          setState({ phase: 'running', progress: answer.progress });
          timer.current = setTimeout(() => check(requestId), latest.current.intervalMs);
        }
      }, fail);
    };

    latest.current.request().then(({ request_id }) => {
      if (live()) timer.current = setTimeout(() => check(request_id), latest.current.intervalMs);
    }, fail);
  }, [stop]);

  const cancel = useCallback(() => {
    stop();
    setState({ phase: 'cancelled' });
  }, [stop]);

  return { state, start, cancel };
}

/** The job's progress while it runs, with a Cancel; its failure once it failed. */
export function GatewayJobProgress<T>({ job, label }: { job: GatewayJob<T>; label: string }) {
  const translate = useTranslate();
  const { state } = job;
  if (state.phase === 'failed') {
    return <Alert severity="error">{translate('job.failed', { reason: state.message })}</Alert>;
  }
  if (state.phase === 'cancelled') return <Typography role="status">{translate('job.cancelled')}</Typography>;
  if (state.phase !== 'running') return null;
  const percent = state.progress;
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', width: '100%' }}>
      <Box sx={{ flexGrow: 1 }}>
        <Typography variant="body2" role="status">
          {percent === undefined ? translate('job.waiting') : translate('job.running', { percent })}
        </Typography>
        <LinearProgress
          aria-label={label}
          variant={percent === undefined ? 'indeterminate' : 'determinate'}
          value={percent}
        />
      </Box>
      <Button onClick={job.cancel}>{translate('job.cancel')}</Button>
    </Stack>
  );
}

import type { Notification } from '../../types/generated/notification.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useGateway, type GatewayApi } from '../../schema/ui/gateway-api.ts';
import { useLiveTopic } from '../../schema/ui/live-updates.tsx';
import type { Piece } from '../../types/generated/piece.ts';

/** One event of the timeline, as `GET webtool/shipments?opname=get_piece_detail` answers it. */
export interface PieceEvent {
  id: number;
  event_code: number;
  at: string;
  actor: string | null;
  details: Record<string, unknown>;
}

export interface PieceDetail {
  piece: Piece & { version: number };
  events: PieceEvent[];
  compartment: {
    compartment_id: number | null;
    column: number | null;
    position: number | null;
    hardware_id: number | null;
    hardware_name: string | null;
    service_point_id: number;
    service_point_name: string | null;
    sp_id: string | null;
  };
  /** What the end user and the courier were sent, as the caller may read it (recipients masked or not). */
  notifications: Notification[];
  /** The piece in the end-user web app: only for a user with the web app link option (spec 01 §6). */
  web_app_link?: string | null;
}

export interface Verdict {
  allowed: boolean;
  reason?: string;
  message_key?: string;
}

export interface TroubleshootVerdicts {
  actions: Record<'cancel' | 'process_manually' | 'extend_expiry' | 'force_expiry' | 'move' | 'comment', Verdict>;
  units: { hardware_id: number; name: string | null; free_compartments: number }[];
  comment: { min_characters: number; max_length: number };
}

export interface SendVerdicts {
  notifications: Record<'end_user' | 'courier', Verdict>;
}

export interface LogLine {
  at: string;
  source: 'event' | 'audit';
  actor: string | null;
  event_code: number | null;
  message: string;
}

const PATH = 'webtool/shipments';

/** A piece's react-query keys: `all()` refreshes the detail, the verdicts and the log lines after an action. */
export const shipmentKeys = {
  all: () => ['shipments'] as const,
  part: (part: 'detail' | 'troubleshoot' | 'send', pieceId: string | undefined) =>
    ['shipments', part, pieceId] as const,
  logs: (query: Record<string, string>) => ['shipments', 'logs', query] as const,
};

/** The piece's detail and what may be done with it, each read once and read again after an action. */
export function usePieceDetail(pieceId: string | undefined) {
  const caller = useGateway();
  const queryClient = useQueryClient();
  const enabled = pieceId !== undefined;
  const get = <T>(opname: string) =>
    caller
      .call<{ data: T }>({ method: 'GET', path: PATH, query: { opname, piece_id: String(pieceId) } })
      .then((answer) => answer.data);
  const detail = useQuery({
    queryKey: shipmentKeys.part('detail', pieceId),
    enabled,
    retry: false,
    queryFn: () => get<PieceDetail>('get_piece_detail'),
  });
  const troubleshoot = useQuery({
    queryKey: shipmentKeys.part('troubleshoot', pieceId),
    enabled,
    retry: false,
    queryFn: () => get<TroubleshootVerdicts>('validate_troubleshoot_actions'),
  });
  const send = useQuery({
    queryKey: shipmentKeys.part('send', pieceId),
    enabled,
    retry: false,
    queryFn: () => get<SendVerdicts>('validate_send_notifications'),
  });
  // An event recorded by someone else (a courier's drop, a colleague's action) joins the timeline in place.
  useLiveTopic(enabled ? `resource/shipments/${pieceId}` : undefined, () => {
    for (const part of ['detail', 'troubleshoot', 'send'] as const) {
      void queryClient.invalidateQueries({ queryKey: shipmentKeys.part(part, pieceId) });
    }
  });
  /** A troubleshooting write; the timeline, tokens and verdicts are read again after it, refused or not. */
  const perform = async (opname: string, body: Record<string, unknown> = {}) => {
    try {
      return await caller.action('shipments', 'PATCH', opname, { piece_id: pieceId, ...body });
    } finally {
      await queryClient.invalidateQueries({ queryKey: shipmentKeys.all() });
    }
  };
  return { detail, troubleshoot, send, perform };
}

export async function fetchPieceLogs(caller: Pick<GatewayApi, 'call'>, query: Record<string, string>) {
  const answer = await caller.call<{ data: { piece_id: string; piece_barcode: string; lines: LogLine[] } }>({
    method: 'GET',
    path: 'webtool/shipments/piece_logs',
    query,
  });
  return answer.data;
}

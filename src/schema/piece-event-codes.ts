/**
 * The piece event codes of spec 02 §4 by their names, as the gateway's event log and its report
 * files name them (`server/gateway/rules/piece-events.ts` gives each its effect); the app reads a
 * report file's event names back to codes, whose words are the locale's `choices.piece_event`.
 */
export const PIECE_EVENTS = {
  HardReserved: 101,
  SoftReserved: 102,
  CourierDelivered: 103,
  PieceExpired: 106,
  PieceCancelled: 110,
  EnduserPickup: 201,
  CourierPickup: 202,
  ReturnPickup: 203,
  ExpiredPiecePickedUp: 204,
  ParcelProcessedManually: 205,
  HardReservationExpired: 206,
  SoftReservationExpired: 207,
  PieceExpiryUpdated: 402,
  PieceTransferredToOtherUser: 408,
  PieceCommentAdded: 410,
  TokenSentToCourier: 411,
  ForcedExpired: 413,
  TicketClosedAndParcelFound: 437,
  TicketClosedAnfParcelNotFound: 438,
  TicketCreated: 439,
  PieceReAllocated: 443,
  PieceMoveInitiated: 444,
  PieceMoveToOtherHW: 445,
  PieceCollectedByOperator: 446,
  EnduserRated: 1201,
  EndUserConnectedToHW: 1212,
} as const;

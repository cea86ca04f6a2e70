import { describe, expect, it } from 'vitest';
import en from '../../../locales/en-US.json';
import { TicketStatus, TicketType, ServicePointStatus, PieceEvent } from '../../../src/types/generated/codes.ts';

const choices = en.choices as Record<string, Record<string, string>>;

describe('named codes generated from x-enum-names', () => {
  it('name the codes of the spec (02 §4)', () => {
    expect(TicketStatus).toEqual({ Open: 1, Closed: 2, OnHold: 3, PhotoPending: 4 });
    expect(TicketType.UninstallPinpad).toBe(6);
    expect(ServicePointStatus.Terminated).toBe(9);
    expect(PieceEvent.EndUserConnectedToHW).toBe(1212);
  });

  it('every named code has its words in the locale', () => {
    for (const code of Object.values(TicketStatus)) expect(choices.ticket_status[code]).toBeTruthy();
    for (const code of Object.values(ServicePointStatus)) expect(choices.service_point_status[code]).toBeTruthy();
    for (const code of Object.values(PieceEvent)) expect(choices.piece_event[code]).toBeTruthy();
  });
});

import type { NewRecord } from '../gateway/record-store.ts';

/** The demo's infinity test app users: the operator company's test phones and e-mails, one inactive. */
export function demoTestAppUsers(): NewRecord[] {
  const users = [
    {
      name: 'QA phone Copenhagen',
      phone: '+45 20 00 00 01',
      email: 'qa.copenhagen@infinity.demo.locker.test',
      carrier_id: 1,
    },
    { name: 'QA phone Oslo', phone: '+47 400 00 001', email: 'qa.oslo@infinity.demo.locker.test', carrier_id: 2 },
    { name: 'QA phone Warsaw', phone: '+48 500 000 001', email: null, carrier_id: 4 },
    {
      name: 'Release check (all carriers)',
      phone: null,
      email: 'release.check@infinity.demo.locker.test',
      carrier_id: null,
    },
    { name: 'Old QA phone', phone: '+45 20 00 00 09', email: null, carrier_id: 1, active: false },
  ];
  return users.map((user, index) => ({
    key: String(index + 1),
    doc: { test_app_user_id: index + 1, active: true, note: null, test_pieces: 0, ...user },
  }));
}

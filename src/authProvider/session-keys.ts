/** Session keys kept in local storage (spec 01 §3). */
export const sessionKeys = {
  userId: 'wt.user_id',
  username: 'wt.username',
  group: 'wt.group',
  profile: 'wt.profile',
  idToken: 'wt.id_token',
  accessToken: 'wt.access_token',
  refreshToken: 'wt.refresh_token',
  roleDescription: 'wt.role_description',
  language: 'wt.language',
  filters: 'wt.filters',
  /** Set while the session came from single sign-on: the tokens above are then the session itself. */
  sso: 'wt.sso',
} as const;

// A module of its own, without React, so the app's first script (main.tsx) can tell whether a
// session is on the device before React has downloaded.

/** The device's session, kept where spec section 4 puts it: localStorage `token` and `userId`. */
export const TOKEN_KEY = 'token';
export const USER_ID_KEY = 'userId';

import { describe, expect, it } from 'vitest';
import { inviteCodeFromQuery, inviteLink } from './invite-link.ts';

describe('the invitation link', () => {
  it('is the origin, the register page and the code', () => {
    expect(inviteLink('https://keel.example', { registerPath: '/register', inviteParam: 'invite' }, 'AB23CD45')).toBe('https://keel.example/register?invite=AB23CD45');
  });

  it('reads the code back as the form takes it', () => {
    expect(inviteCodeFromQuery(' ab23cd45 ')).toBe('AB23CD45');
    expect(inviteCodeFromQuery(null)).toBe('');
    expect(inviteCodeFromQuery('x'.repeat(40))).toHaveLength(16);
  });
});

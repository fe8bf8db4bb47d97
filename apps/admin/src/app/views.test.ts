import { staffRoles } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { firstAllowedView, mayCall, viewAllowed, views } from './views.ts';

describe('the views a member is offered', () => {
  it('opens a view to the roles of its reads, and "my sessions" to everyone', () => {
    expect(viewAllowed('deposits', ['finance'])).toBe(true);
    expect(viewAllowed('deposits', ['support'])).toBe(false);
    expect(viewAllowed('audit', ['compliance'])).toBe(true);
    expect(viewAllowed('staff', ['finance', 'support'])).toBe(false);
    for (const role of staffRoles) expect(viewAllowed('mysessions', [role])).toBe(true);
  });

  it('opens the contracts view with either of its reads (the house, or every user’s orders)', () => {
    expect(viewAllowed('options', ['finance'])).toBe(true);
    expect(viewAllowed('options', ['support'])).toBe(true);
    expect(viewAllowed('options', ['compliance'])).toBe(false);
  });

  it('opens the positions to admin, finance and support, the house’s exposure and insurance fund to admin and finance', () => {
    for (const role of ['admin', 'finance', 'support'] as const) expect(viewAllowed('leveragePositions', [role])).toBe(true);
    for (const role of ['admin', 'finance'] as const) {
      expect(viewAllowed('leverageExposure', [role])).toBe(true);
      expect(viewAllowed('insuranceFund', [role])).toBe(true);
    }
    for (const role of ['compliance', 'content', 'merchant'] as const) expect(viewAllowed('leveragePositions', [role])).toBe(false);
    for (const role of ['support', 'compliance', 'content', 'merchant'] as const) {
      expect(viewAllowed('leverageExposure', [role])).toBe(false);
      expect(viewAllowed('insuranceFund', [role])).toBe(false);
    }
  });

  it('opens the earn products to admins only (the contract’s earnStaffRoles)', () => {
    expect(viewAllowed('earn', ['admin'])).toBe(true);
    for (const role of ['finance', 'support', 'compliance', 'content', 'merchant'] as const) expect(viewAllowed('earn', [role])).toBe(false);
  });

  it('opens the loan review to compliance and the loan products to admins (the contracts’ loanReviewRoles and loanProductRoles)', () => {
    expect(viewAllowed('loans', ['compliance'])).toBe(true);
    expect(viewAllowed('loanProducts', ['admin'])).toBe(true);
    for (const role of ['admin', 'finance', 'support', 'content', 'merchant'] as const) expect(viewAllowed('loans', [role])).toBe(false);
    for (const role of ['finance', 'support', 'compliance', 'content', 'merchant'] as const) expect(viewAllowed('loanProducts', [role])).toBe(false);
  });

  it('opens the funding requests’ review to compliance only (the contract’s fundReviewRoles)', () => {
    expect(viewAllowed('fundRequests', ['compliance'])).toBe(true);
    for (const role of ['admin', 'finance', 'support', 'content', 'merchant'] as const) expect(viewAllowed('fundRequests', [role])).toBe(false);
  });

  it('opens the staff corrections to admin and finance (the contract’s correctionRoles)', () => {
    for (const role of ['admin', 'finance'] as const) expect(viewAllowed('corrections', [role])).toBe(true);
    for (const role of ['support', 'compliance', 'content', 'merchant'] as const) expect(viewAllowed('corrections', [role])).toBe(false);
  });

  it('opens the merchant console to merchants only and the C2C appeals to support only (the contracts’ staffRoles)', () => {
    expect(viewAllowed('merchant', ['merchant'])).toBe(true);
    for (const role of ['admin', 'finance', 'support', 'compliance', 'content'] as const) expect(viewAllowed('merchant', [role])).toBe(false);
    expect(viewAllowed('c2cAppeals', ['support'])).toBe(true);
    for (const role of ['admin', 'finance', 'compliance', 'content', 'merchant'] as const) expect(viewAllowed('c2cAppeals', [role])).toBe(false);
    expect(viewAllowed('mysessions', ['merchant'])).toBe(true);
  });

  it('opens the proof-of-liabilities snapshots to admins only (the request contract’s roles; the list itself is public)', () => {
    expect(viewAllowed('proof', ['admin'])).toBe(true);
    for (const role of ['finance', 'support', 'compliance', 'content', 'merchant'] as const) expect(viewAllowed('proof', [role])).toBe(false);
  });

  it('opens the content editor to content staff only (the contracts’ staffRoles)', () => {
    expect(viewAllowed('content', ['content'])).toBe(true);
    for (const role of ['admin', 'finance', 'support', 'compliance', 'merchant'] as const) expect(viewAllowed('content', [role])).toBe(false);
  });

  it('sends /admin to the first view in the navigation the roles open', () => {
    expect(firstAllowedView(['admin']).path).toBe('users');
    expect(firstAllowedView(['finance']).path).toBe('users');
    expect(firstAllowedView(['compliance']).path).toBe('users');
    // Content staff have no user list: they land on the content; a merchant lands on the console.
    expect(firstAllowedView(['content']).path).toBe('content');
    expect(firstAllowedView(['merchant']).path).toBe('c2c/merchant');
  });

  it('reads a contract without listed roles as open to every role, as the contract type says', () => {
    expect(mayCall(['content'], {})).toBe(true);
    expect(mayCall(['content'], { staffRoles: [] })).toBe(true);
    expect(mayCall(['content'], { staffRoles: ['admin'] })).toBe(false);
  });

  it('gives every view its own path', () => {
    expect(new Set(views.map((view) => view.path)).size).toBe(views.length);
  });
});

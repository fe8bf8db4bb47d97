import { describe, expect, it } from 'vitest';
import {
  CLICK_SUPPRESS_MS,
  clampLeft,
  clampTop,
  DRAG_THRESHOLD_PX,
  defaultPosition,
  dropPosition,
  EDGE_INSET_PX,
  FAB_SIZE_PX,
  fabVisibleOn,
  isClickSuppressed,
  isDrag,
  isOpenableServiceUrl,
  parsePosition,
  snappedLeft,
  snapSide,
  TAB_BAR_PX,
} from './fab-logic.ts';

describe('floating service button rules', () => {
  it('uses the constants of spec section 9', () => {
    expect(FAB_SIZE_PX).toBe(60);
    expect(DRAG_THRESHOLD_PX).toBe(6);
    expect(CLICK_SUPPRESS_MS).toBe(250);
  });

  it('counts a movement of more than 6 px from pointer-down as a drag, and 6 px or less as a click', () => {
    expect(isDrag(0, 0)).toBe(false);
    expect(isDrag(6, 0)).toBe(false);
    expect(isDrag(0, -6)).toBe(false);
    expect(isDrag(4, 4)).toBe(false); // 5.66 px
    expect(isDrag(5, 4)).toBe(true); // 6.40 px
    expect(isDrag(-7, 0)).toBe(true);
    expect(isDrag(100, 0)).toBe(true);
  });

  it('snaps to the edge nearer the button centre', () => {
    expect(snapSide(0, 390)).toBe('left');
    expect(snapSide(100, 390)).toBe('left'); // centre 130
    expect(snapSide(164, 390)).toBe('left'); // centre 194
    expect(snapSide(165, 390)).toBe('right'); // centre 195: the exact middle goes right
    expect(snapSide(330, 390)).toBe('right');
  });

  it('places a snapped button at the inset from its edge', () => {
    expect(snappedLeft('left', 390)).toBe(EDGE_INSET_PX);
    expect(snappedLeft('right', 390)).toBe(390 - 60 - EDGE_INSET_PX);
  });

  it('keeps the vertical position but clamps it to the viewport', () => {
    expect(clampTop(300, 844)).toBe(300);
    expect(clampTop(-50, 844)).toBe(EDGE_INSET_PX);
    expect(clampTop(2000, 844)).toBe(844 - 60 - EDGE_INSET_PX);
    expect(clampTop(Number.NaN, 844)).toBe(EDGE_INSET_PX);
    // A viewport shorter than the button pins it to the top inset.
    expect(clampTop(30, 50)).toBe(EDGE_INSET_PX);
  });

  it('keeps a dragged button inside the viewport horizontally', () => {
    expect(clampLeft(-20, 390)).toBe(0);
    expect(clampLeft(500, 390)).toBe(330);
    expect(clampLeft(100, 390)).toBe(100);
  });

  it('turns a drop into a remembered side and top', () => {
    expect(dropPosition(40, 500, 390, 844)).toEqual({ side: 'left', top: 500 });
    expect(dropPosition(300, 900, 390, 844)).toEqual({ side: 'right', top: 844 - 60 - EDGE_INSET_PX });
  });

  it('suppresses clicks for 250 ms after a drag ends, and only then', () => {
    expect(isClickSuppressed(1000, null)).toBe(false);
    expect(isClickSuppressed(1000, 1000)).toBe(true);
    expect(isClickSuppressed(1249, 1000)).toBe(true);
    expect(isClickSuppressed(1250, 1000)).toBe(false);
    expect(isClickSuppressed(5000, 1000)).toBe(false);
  });

  it('starts at the inline end of the screen, at the bottom edge just above the tab bar', () => {
    expect(defaultPosition(844, false).side).toBe('right');
    expect(defaultPosition(844, true).side).toBe('left');
    // 844 − 64 (tab bar) − 60 (button) − 8 (gap): its bottom edge 8 px above the tab bar.
    expect(defaultPosition(844, false).top).toBe(844 - TAB_BAR_PX - 60 - EDGE_INSET_PX);
    expect(defaultPosition(844, false).top + FAB_SIZE_PX).toBeLessThanOrEqual(844 - TAB_BAR_PX);
    // A screen too short for that keeps it inside the viewport, at the top inset.
    expect(defaultPosition(100, false).top).toBe(EDGE_INSET_PX);
  });

  it('reads a remembered position and ignores anything malformed', () => {
    expect(parsePosition('{"side":"left","top":120}')).toEqual({ side: 'left', top: 120 });
    expect(parsePosition(null)).toBeNull();
    expect(parsePosition('not json')).toBeNull();
    expect(parsePosition('{"side":"up","top":1}')).toBeNull();
    expect(parsePosition('{"side":"left","top":"1"}')).toBeNull();
    expect(parsePosition('null')).toBeNull();
  });

  it('is hidden on every path that contains /trade, and shown on the others, public ones too', () => {
    expect(fabVisibleOn('/index')).toBe(true);
    expect(fabVisibleOn('/login')).toBe(true);
    expect(fabVisibleOn('/register')).toBe(true);
    expect(fabVisibleOn('/news/OrderDeyail')).toBe(true);
    expect(fabVisibleOn('/my')).toBe(true);
    expect(fabVisibleOn('/trade')).toBe(false);
    expect(fabVisibleOn('/trade_1')).toBe(false);
    expect(fabVisibleOn('/trade/shopping')).toBe(false);
  });

  it('opens only web and mail addresses', () => {
    expect(isOpenableServiceUrl('https://support.keel.example/')).toBe(true);
    expect(isOpenableServiceUrl('mailto:help@keel.example')).toBe(true);
    expect(isOpenableServiceUrl('javascript:alert(1)')).toBe(false);
    expect(isOpenableServiceUrl('not a url')).toBe(false);
  });
});

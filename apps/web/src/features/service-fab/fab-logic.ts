/**
 * The floating customer-service button's rules (spec sections 2 and 9), kept free of the DOM so
 * they can be tested on their own: what counts as a drag, which edge a drop snaps to, how the
 * position is kept on screen, and how long a click is ignored after a drag.
 */

/** Spec section 9: the button is 60 px round. */
export const FAB_SIZE_PX = 60;
/** Spec section 9: a pointer that moves more than 6 px from where it went down is dragging. */
export const DRAG_THRESHOLD_PX = 6;
/** Spec section 9: clicks are ignored for 250 ms after a drag ends. */
export const CLICK_SUPPRESS_MS = 250;
/** Gap kept between the button and the viewport's edges. */
export const EDGE_INSET_PX = 8;
/** The tab bar's height (`--tab-height` in app.css): the button starts just above it. */
export const TAB_BAR_PX = 64;
/** Where the position is remembered on the device. */
export const FAB_POSITION_KEY = 'fab-position';

export type FabSide = 'left' | 'right';

export interface FabPosition {
  side: FabSide;
  /** Distance of the button's top edge from the viewport's top, in CSS pixels. */
  top: number;
}

/** True once the pointer has moved more than the threshold from where it went down. */
export function isDrag(dx: number, dy: number, thresholdPx: number = DRAG_THRESHOLD_PX): boolean {
  return Math.hypot(dx, dy) > thresholdPx;
}

/** The edge nearer to the button's centre; the exact middle goes right. */
export function snapSide(left: number, viewportWidth: number, size: number = FAB_SIZE_PX): FabSide {
  return left + size / 2 < viewportWidth / 2 ? 'left' : 'right';
}

function clamp(value: number, min: number, max: number): number {
  // A viewport smaller than the button pins it to the start rather than giving min > max.
  if (max < min) return min;
  return Math.min(Math.max(value, min), max);
}

/** Keeps the button's top inside the viewport (with the inset), whatever was stored or dragged. */
export function clampTop(top: number, viewportHeight: number, size: number = FAB_SIZE_PX, inset: number = EDGE_INSET_PX): number {
  if (!Number.isFinite(top)) return inset;
  return clamp(top, inset, viewportHeight - size - inset);
}

/** Keeps the button's left edge inside the viewport while it is dragged. */
export function clampLeft(left: number, viewportWidth: number, size: number = FAB_SIZE_PX): number {
  return clamp(left, 0, viewportWidth - size);
}

/** The left coordinate of a button snapped to `side`. */
export function snappedLeft(side: FabSide, viewportWidth: number, size: number = FAB_SIZE_PX, inset: number = EDGE_INSET_PX): number {
  return side === 'left' ? inset : Math.max(inset, viewportWidth - size - inset);
}

/** Where a drag that ended with the button at (left, top) leaves it. */
export function dropPosition(left: number, top: number, viewportWidth: number, viewportHeight: number, size: number = FAB_SIZE_PX): FabPosition {
  return { side: snapSide(left, viewportWidth, size), top: clampTop(top, viewportHeight, size) };
}

/** True while a click must be ignored because a drag ended less than the window ago. */
export function isClickSuppressed(nowMs: number, dragEndedAtMs: number | null, windowMs: number = CLICK_SUPPRESS_MS): boolean {
  return dragEndedAtMs !== null && nowMs - dragEndedAtMs < windowMs;
}

/**
 * Where the button starts before the user ever moves it: the inline end, at the bottom edge just
 * above the tab bar, where it covers no content (pages leave room for it at their end, app.css
 * `.with-service-fab`) rather than sitting over the middle of a list or a form.
 */
export function defaultPosition(viewportHeight: number, rtl: boolean, size: number = FAB_SIZE_PX): FabPosition {
  return { side: rtl ? 'left' : 'right', top: clampTop(viewportHeight - TAB_BAR_PX - size - EDGE_INSET_PX, viewportHeight, size) };
}

/** Reads a remembered position; anything malformed counts as none. */
export function parsePosition(text: string | null): FabPosition | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<FabPosition> | null;
    if (!value || (value.side !== 'left' && value.side !== 'right')) return null;
    if (typeof value.top !== 'number' || !Number.isFinite(value.top)) return null;
    return { side: value.side, top: value.top };
  } catch {
    return null;
  }
}

/** The button is on every page whose path does not contain /trade, public or not (spec section 2). */
export function fabVisibleOn(pathname: string): boolean {
  return !pathname.includes('/trade');
}

/** Only web and mail addresses may be opened; anything else (javascript:, data:) is refused. */
export function isOpenableServiceUrl(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:';
  } catch {
    return false;
  }
}

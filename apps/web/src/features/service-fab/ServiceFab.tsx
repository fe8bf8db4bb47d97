import { type PointerEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { HeadsetIcon } from '../../shared/ui/icons.tsx';
import {
  clampLeft,
  clampTop,
  defaultPosition,
  dropPosition,
  FAB_POSITION_KEY,
  FAB_SIZE_PX,
  type FabPosition,
  fabVisibleOn,
  isClickSuppressed,
  isDrag,
  parsePosition,
  snappedLeft,
} from './fab-logic.ts';
import { useOpenService } from './useOpenService.ts';

/**
 * The floating customer-service button: on every path without /trade, logged in or not (a visitor
 * who cannot log in needs it most; the service URL is public, issue 14).
 */
export function ServiceFab() {
  const { pathname } = useLocation();
  if (!fabVisibleOn(pathname)) return null;
  return <DraggableServiceButton />;
}

interface Gesture {
  pointerId: number;
  startX: number;
  startY: number;
  originLeft: number;
  originTop: number;
  dragging: boolean;
  /** Where the last move put the button; a cancelled pointer carries no usable coordinates. */
  last: { left: number; top: number };
}

function readViewport() {
  return { width: window.innerWidth, height: window.innerHeight };
}

function initialPosition(): FabPosition {
  const { height } = readViewport();
  const stored = parsePosition(localStorage.getItem(FAB_POSITION_KEY));
  if (stored) return { side: stored.side, top: clampTop(stored.top, height) };
  return defaultPosition(height, document.documentElement.dir === 'rtl');
}

function DraggableServiceButton() {
  const { t } = useI18n();
  const { open, busy } = useOpenService();
  const [viewport, setViewport] = useState(readViewport);
  const [position, setPosition] = useState<FabPosition>(initialPosition);
  const [dragAt, setDragAt] = useState<{ left: number; top: number } | null>(null);
  const gesture = useRef<Gesture | null>(null);
  const dragEndedAt = useRef<number | null>(null);

  useEffect(() => {
    const onResize = () => setViewport(readViewport());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const left = dragAt ? dragAt.left : snappedLeft(position.side, viewport.width);
  const top = dragAt ? dragAt.top : clampTop(position.top, viewport.height);

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    gesture.current = {
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      originLeft: left,
      originTop: top,
      dragging: false,
      last: { left, top },
    };
  };

  const pointAt = (current: Gesture, event: PointerEvent<HTMLButtonElement>) => {
    const { width, height } = readViewport();
    return {
      left: clampLeft(current.originLeft + event.clientX - current.startX, width),
      top: clampTop(current.originTop + event.clientY - current.startY, height),
    };
  };

  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    if (!current.dragging && isDrag(event.clientX - current.startX, event.clientY - current.startY)) current.dragging = true;
    if (!current.dragging) return;
    current.last = pointAt(current, event);
    setDragAt(current.last);
  };

  const endGesture = (event: PointerEvent<HTMLButtonElement>) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    gesture.current = null;
    if (!current.dragging) return;
    const dropped = event.type === 'pointercancel' ? current.last : pointAt(current, event);
    const { width, height } = readViewport();
    const next = dropPosition(dropped.left, dropped.top, width, height);
    setPosition(next);
    setDragAt(null);
    dragEndedAt.current = performance.now();
    localStorage.setItem(FAB_POSITION_KEY, JSON.stringify(next));
  };

  const onClick = useCallback(() => {
    // The click that ends a drag, and any within 250 ms of it, does not open the service page.
    if (isClickSuppressed(performance.now(), dragEndedAt.current)) return;
    void open();
  }, [open]);

  return (
    <button
      type="button"
      className={dragAt ? 'service-fab dragging' : 'service-fab'}
      data-testid="service-fab"
      data-side={position.side}
      aria-label={t('web.service.label')}
      title={t('web.service.label')}
      aria-busy={busy || undefined}
      style={{ left, top, width: FAB_SIZE_PX, height: FAB_SIZE_PX }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endGesture}
      onPointerCancel={endGesture}
      onClick={onClick}
    >
      <HeadsetIcon />
    </button>
  );
}

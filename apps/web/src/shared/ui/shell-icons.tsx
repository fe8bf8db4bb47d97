// The icons the shell itself draws (the common components, the error pages), in a module of their
// own so the first screen's script carries these three and not every feature's (icons.tsx).
import type { ReactNode } from 'react';

/** Small inline SVG icons (24×24 grid, drawn with currentColor); decorative, so hidden from screen readers. */
export function Icon({ children, size = 24 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const BackIcon = () => (
  <Icon size={22}>
    <path className="flip-rtl" d="M15 5 8 12l7 7" />
  </Icon>
);

export const AlertIcon = () => (
  <Icon size={20}>
    <path d="M12 3 2 20h20L12 3Z" />
    <path d="M12 10v4" />
    <path d="M12 17h.01" />
  </Icon>
);

export const EyeIcon = ({ open }: { open: boolean }) => (
  <Icon size={20}>
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
    <circle cx="12" cy="12" r="3" />
    {!open && <path d="M4 4l16 16" />}
  </Icon>
);

// React pieces both front ends use (the user app and the back-office may not import each other).
export { QrCode, qrModules } from './QrCode.tsx';

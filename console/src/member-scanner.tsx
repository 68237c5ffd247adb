import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from './strings/index.js';

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

/** The browser's own barcode reader, where there is one (Chrome on Android and macOS; not Linux or Firefox). */
const BarcodeDetector = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
const MEMBER_ID = /\b\d{13}\b/;

/** A camera button that reads a member's QR code into the input; absent where the browser cannot read codes. */
export function MemberScanner({ onScanned }: { onScanned: (member: string) => void }) {
  const [scanning, setScanning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (!scanning || BarcodeDetector === undefined) return;
    const detector = new BarcodeDetector({ formats: ['qr_code', 'code_128', 'ean_13'] });
    let stream: MediaStream | undefined;
    let stopped = false;
    void (async () => {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
      if (video.current === null) return;
      video.current.srcObject = stream;
      await video.current.play();
      while (!stopped) {
        const found = (await detector.detect(video.current)).map(
          (code) => MEMBER_ID.exec(code.rawValue)?.[0],
        );
        const member = found.find((value) => value !== undefined);
        if (member !== undefined) {
          onScanned(member);
          setScanning(false);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })().catch(() => setScanning(false));
    return () => {
      stopped = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [scanning]);
  if (BarcodeDetector === undefined) return null;
  return (
    <>
      <button type="button" onClick={() => setScanning(!scanning)}>
        {scanning ? t.desk.stopScanning : t.desk.scan}
      </button>
      {scanning && <video ref={video} class="scanner" muted playsInline aria-label={t.desk.camera} />}
    </>
  );
}

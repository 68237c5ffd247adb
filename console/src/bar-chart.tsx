import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount } from './format.js';
import { t } from './strings/index.js';

const HEIGHT = 220;

/**
 * Bars drawn by uPlot on a canvas. A canvas says nothing to a screen reader: the figure carries the numbers as its
 * accessible name instead.
 */
export function BarChart({ title, labels, values }: { title: string; labels: string[]; values: number[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const xs = labels.map((_, index) => index);
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: false, range: [-0.5, Math.max(labels.length - 0.5, 0.5)] },
          y: { range: [0, null] },
        },
        axes: [
          {
            values: (_, ticks) => ticks.map((tick) => labels[tick] ?? ''),
            splits: () => xs.filter((index) => index % Math.ceil(labels.length / 8) === 0),
          },
          { values: (_, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? formatCount(tick) : '')) },
        ],
        series: [
          {},
          {
            label: title,
            fill: '#2f6f9f',
            stroke: '#2f6f9f',
            paths: uPlot.paths.bars?.({ size: [0.7, 60] }),
          },
        ],
      },
      [xs, values],
      element,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [labels.join('|'), values.join('|')]);
  const summary = labels.map((label, index) => `${label}: ${formatCount(values[index] ?? 0)}`).join(', ');
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} role="img" aria-label={`${title}. ${summary || t.common.noData}`} />
    </figure>
  );
}

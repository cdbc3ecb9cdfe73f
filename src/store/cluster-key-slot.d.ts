// The hash slot function ioredis itself routes Cluster commands with; the package ships no types.
declare module 'cluster-key-slot' {
  export default function calculateSlot(key: string | Buffer): number;
}

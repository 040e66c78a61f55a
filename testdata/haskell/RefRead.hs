{-# LANGUAGE BangPatterns #-}
-- RefRead: reference-parser benchmark.  Reads a whole eventlog with the
-- ghc-events library (Debian's 0.17.0.3, GHC.RTS.Events.readEventLogFromFile)
-- and prints how many events it holds, so its wall time and peak RSS can be
-- compared with hecscope's Go decoder.
--
-- Build:  ghc -O2 -rtsopts -package ghc-events RefRead.hs -o refread
-- Run:    /usr/bin/time -v ./refread FILE.eventlog          (benchmark)
--         ./refread --check FILE.eventlog                   (also verify framing)
--         /usr/bin/time -v ./refread --hold FILE.eventlog   (keep all events resident)
--
-- Output (stdout):
--   events: N          events ghc-events returned (block markers excluded)
--   block-markers: B   `EventBlock` values found in the list; always 0 with
--                      0.17 (see below), counted in case a newer library
--                      keeps them
--   event-types: T     event types declared in the header
--   last-timestamp: S  largest timestamp seen (ns)
-- With --hold, the event list is traversed twice (count, then timestamps), so
-- the whole decoded [Event] list is resident at the peak: the memory cost of
-- a viewer that keeps every event, as opposed to the default streaming count.
-- With --check, additionally:
--   framing-events: F  events found by walking the raw framing (header sizes,
--                      then id/timestamp/payload up to the 0xFFFF end marker),
--                      block markers excluded
--   framing-block-markers: M
--   check: ok          when N == F and the end marker is the last 2 bytes;
--                      otherwise "check: MISMATCH ..." and exit status 1
--
-- What ghc-events 0.17 does (observed on GHC 9.0.2 logs):
--  * readEventLogFromFile = fmap fst . readEventLog <$> Data.ByteString.Lazy.readFile:
--    it returns Right as soon as the header is parsed and the event list is
--    produced lazily, so this program runs in constant memory (the list is
--    consumed while it is decoded).
--  * EVENT_BLOCK_MARKER (type 18) events are consumed by the decoder and never
--    appear in the list (a log with 3 block markers among 33701 events gives
--    33698 events here).
--  * A truncated file is NOT reported: the list just stops (exit status 0).
--    An undeclared event id makes the program die with an exception.
--    That is why --check exists: it compares against an independent count.
--  * Each event is forced to WHNF (its EventInfo constructor and capability)
--    while counting.  EventInfo fields are strict/UNPACKed in 0.17 (Text
--    fields are strict too), so WHNF means the event is fully decoded.
module Main (main) where

import qualified Data.ByteString as B
import qualified Data.ByteString.Unsafe as BU
import Data.Bits (shiftL, (.|.))
import Data.List (foldl')
import qualified Data.Map.Strict as M
import Data.Word (Word16, Word32)
import GHC.RTS.Events
import System.Environment (getArgs)
import System.Exit
import System.IO

data Acc = Acc !Int !Int !Timestamp

main :: IO ()
main = do
  args <- getArgs
  (mode, f) <- case args of
    [x] -> return ("", x)
    [m, x] | m `elem` ["--check", "--hold"] -> return (m, x)
    _ -> hPutStrLn stderr "usage: refread [--check|--hold] FILE.eventlog" >> exitWith (ExitFailure 2)
  r <- readEventLogFromFile f
  case r of
    Left err -> do
      hPutStrLn stderr ("refread: failed to parse " ++ f ++ ": " ++ err)
      exitFailure
    Right (EventLog (Header ets) (Data evs)) | mode == "--hold" -> do
      -- first pass decodes everything; the second keeps the list alive
      let Acc n b _ = foldl' step (Acc 0 0 0) evs
      putStrLn ("events: " ++ show n)
      putStrLn ("block-markers: " ++ show b)
      putStrLn ("event-types: " ++ show (length ets))
      putStrLn ("last-timestamp: " ++ show (foldl' (\m e -> max m (evTime e)) 0 evs))
    Right (EventLog (Header ets) (Data evs)) -> do
      let Acc n b t = foldl' step (Acc 0 0 0) evs
      putStrLn ("events: " ++ show n)
      putStrLn ("block-markers: " ++ show b)
      putStrLn ("event-types: " ++ show (length ets))
      putStrLn ("last-timestamp: " ++ show t)
      if mode == "--check" then checkFraming f n else return ()
  where
    step (Acc !n !b !t) ev =
      let !t' = max t (evTime ev)
      in case evCap ev of
           !_ -> case evSpec ev of
             EventBlock {} -> Acc n (b + 1) t'
             _ -> Acc (n + 1) b t'

-- Independent framing walk over the raw bytes (see the format notes in
-- /work/shared/docs/eventlog-format.md section 2).
checkFraming :: FilePath -> Int -> IO ()
checkFraming f n = do
  bs <- B.readFile f
  case walk bs of
    Left err -> do
      putStrLn ("check: MISMATCH framing error: " ++ err)
      exitFailure
    Right (evCount, blocks, endOff) -> do
      putStrLn ("framing-events: " ++ show evCount)
      putStrLn ("framing-block-markers: " ++ show blocks)
      let atEnd = endOff == B.length bs
      if evCount == n && atEnd
        then putStrLn "check: ok"
        else do
          putStrLn ("check: MISMATCH ghc-events=" ++ show n ++ " framing=" ++ show evCount
                    ++ " end-marker-at-eof=" ++ show atEnd)
          exitFailure

u16 :: B.ByteString -> Int -> Word16
u16 s i = (fromIntegral (BU.unsafeIndex s i) `shiftL` 8) .|. fromIntegral (BU.unsafeIndex s (i + 1))

u32 :: B.ByteString -> Int -> Word32
u32 s i = (fromIntegral (u16 s i) `shiftL` 16) .|. fromIntegral (u16 s (i + 2))

-- Returns (events excluding block markers, block markers, offset after the
-- 0xFFFF end marker).
walk :: B.ByteString -> Either String (Int, Int, Int)
walk s
  | B.length s < 8 || B.take 8 s /= tag "hdrbhetb" = Left "no hdrb/hetb header"
  | otherwise = types M.empty 8
  where
    len = B.length s
    tag = B.pack . map (fromIntegral . fromEnum)
    need o k | o + k <= len = Right ()
             | otherwise = Left ("unexpected end of file at offset " ++ show o)
    types !m !o = do
      need o 4
      if B.take 4 (B.drop o s) == tag "etb\0"
        then do
          need o 12
          let tid = u16 s (o + 4)
              sz = u16 s (o + 6)
              dl = fromIntegral (u32 s (o + 8))
          need (o + 12 + dl) 4
          let el = fromIntegral (u32 s (o + 12 + dl))
              o' = o + 12 + dl + 4 + el
          need o' 4
          if B.take 4 (B.drop o' s) /= tag "ete\0"
            then Left ("missing ete at offset " ++ show o')
            else types (M.insert tid sz m) (o' + 4)
        else if B.take 12 (B.drop o s) == tag "hetehdredatb"
          then events m 0 0 (o + 12)
          else Left ("bad header marker at offset " ++ show o)
    events m !n !b !o = do
      need o 2
      let tid = u16 s o
      if tid == 0xFFFF
        then Right (n, b, o + 2)
        else do
          need o 10
          case M.lookup tid m of
            Nothing -> Left ("undeclared event type " ++ show tid ++ " at offset " ++ show o)
            Just 0xFFFF -> do
              need (o + 10) 2
              let pl = fromIntegral (u16 s (o + 10))
              need (o + 12) pl
              events m (n + 1) b (o + 12 + pl)
            Just sz -> do
              need (o + 10) (fromIntegral sz)
              if tid == 18
                then events m n (b + 1) (o + 10 + fromIntegral sz)
                else events m (n + 1) b (o + 10 + fromIntegral sz)

# Seat controller entry point on the Pico: `make firmware` compiles the other board files
# to .mpy; copy them and this file (and board.json, if any) to the board (hardware/README.md).

import machine

import hal_pico
from controller import Config, SeatController


def run():
    if hal_pico.service_mode():
        print("seat controller: service mode, REPL kept")
        return
    kinds, overrides = hal_pico.board_config()  # board.json: the reader per pad, timings
    port, readers, buttons, leds, buzzer, clock = hal_pico.make_board(kinds)
    # The hardware watchdog resets the board if one loop pass takes over 2 s (a hung
    # SPI reader); the host sees a fresh HELLO and resends the LED states.
    wdt = machine.WDT(timeout=2000)
    fw = SeatController(
        port,
        readers,
        buttons,
        leds,
        buzzer,
        clock,
        wdt,
        device_id=hal_pico.device_id(),
        config=hal_pico.apply_config(Config(), overrides),
    )
    while True:
        fw.step()


run()

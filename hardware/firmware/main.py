# Seat controller entry point on the Pico: copy wire.py, debounce.py, controller.py,
# mfrc522.py, hal_pico.py and this file to the board (hardware/README.md, "Flashing").

import machine

import hal_pico
from controller import Config, SeatController


def run():
    if hal_pico.service_mode():
        print("seat controller: service mode, REPL kept")
        return
    port, readers, buttons, leds, buzzer, clock = hal_pico.make_board()
    # The hardware watchdog resets the board if one loop pass takes over 2 s (a hung
    # SPI reader); the host sees a fresh HELLO and resends the LED states.
    wdt = machine.WDT(timeout=2000)
    fw = SeatController(port, readers, buttons, leds, buzzer, clock, wdt,
                        device_id=hal_pico.device_id(), config=Config())
    while True:
        fw.step()


run()

"""Simulation: bots that play a table, and the wiring that lets them play through the
virtual table (hardware/virtual) and sensing as real people would.

May import the rules, sensing, the live loop and ``hardware.virtual``; nothing in the
production path (rules, sensing, store, views, live) imports this package.
"""

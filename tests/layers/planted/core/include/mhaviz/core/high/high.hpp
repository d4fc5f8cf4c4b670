#pragma once
int core_high();

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// The local chain's ERC-20 test token (18 decimals). The owner (the deployer) mints.
contract CuepointToken is ERC20, Ownable {
    constructor() ERC20("Cuepoint Token", "CUE") Ownable(msg.sender) {}

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
